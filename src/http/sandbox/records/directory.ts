// Companies as the control plane lists them (GET /companies): each with its users, their
// balances, Providers, permissions and credential ids. Secrets are stored hashed: none is shown.
import { z } from '@hono/zod-openapi'
import { ENVIRONMENTS, OPERATIONS } from '../../../domain/enums.js'
import type { DirectoryCompany } from '../../../store/directory.js'
import { orNull, Provider } from '../schemas.js'

/** The default scenario's inactive company, as its own credentials list it. */
export const COMPANY_LISTING_EXAMPLE = {
  company_id: 'loja-inativa',
  name: 'Loja Inativa Ltda',
  api_active: false,
  users: [
    {
      user_id: 'loja-inativa-user',
      name: 'Loja Inativa (API)',
      permissions: ['charge', 'transfer'],
      balance: 100000,
      providers: {
        in: { name: 'Banco Exemplo', operations: ['charge'] },
        out: { name: 'Banco Exemplo', operations: ['transfer'] },
      },
      credentials: [{ client_id: 'inactive', environment: 'sandbox', revoked: false }],
    },
  ],
}

const CredentialListing = z
  .object({
    client_id: z
      .string()
      .openapi({ description: "The credential's client id (its secret is stored hashed)." }),
    environment: z
      .enum(ENVIRONMENTS)
      .openapi({ description: 'production keys are refused by the sandbox (401).' }),
    revoked: z.boolean().openapi({ description: 'true: refused (401).' }),
  })
  .openapi('CredentialListing')

const UserListing = z
  .object({
    user_id: z.string().openapi({ description: "The user's id (balances are per user)." }),
    name: z.string().openapi({ description: "The user's name." }),
    permissions: z
      .array(z.enum(OPERATIONS))
      .openapi({ description: 'What its credentials may do; an operation missing answers 403.' }),
    balance: z.int().openapi({ description: 'Cents (1000 = R$ 10,00).' }),
    providers: z
      .object({
        in: orNull(Provider).openapi({ description: 'The charges Provider; null when none.' }),
        out: orNull(Provider).openapi({ description: 'The transfers Provider; null when none.' }),
      })
      .openapi({ description: 'Its Providers, per direction.' }),
    credentials: z
      .array(CredentialListing)
      .openapi({ description: 'Its credentials, oldest first (as the scenario file lists them).' }),
  })
  .openapi('UserListing')

export const CompanyListing = z
  .object({
    company_id: z.string().openapi({ description: "The company's id." }),
    name: z.string().openapi({ description: 'Its name.' }),
    api_active: z
      .boolean()
      .openapi({ description: 'false: both POSTs of the contract answer 403.' }),
    users: z.array(UserListing).openapi({
      description:
        'Its users, oldest first, as the scenario file lists them (at most 500 on a page, all its companies together).',
    }),
  })
  .openapi('CompanyListing', { example: COMPANY_LISTING_EXAMPLE })
export type CompanyListing = z.output<typeof CompanyListing>

export const companyListing = (co: DirectoryCompany): CompanyListing => ({
  company_id: co.id,
  name: co.name,
  api_active: co.apiActive,
  users: co.users.map((u) => ({
    user_id: u.id,
    name: u.name,
    permissions: u.permissions,
    balance: u.balance,
    providers: u.providers,
    credentials: u.credentials.map((c) => ({
      client_id: c.clientId,
      environment: c.environment,
      revoked: c.revoked,
    })),
  })),
})
