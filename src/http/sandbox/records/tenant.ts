// Tenants, companies and balances as the control plane shows them: the published schemas, and
// the mappers held to them.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import type { Company } from '../../../domain/types.js'
import type { Tenant } from '../../../operations/tenants.js'
import { LEDGER_KINDS, type LedgerEntry } from '../../../store/ledger.js'
import { iso } from '../schemas.js'

/** A company created with the request example. */
export const TENANT_EXAMPLE = {
  company_id: 'co_lLpkYQYiAsTwzsCG0spoEms1',
  user_id: 'usr_WESabwlIwu4sklBbDzOVlsOi',
  client_id: 'ck_bVZGlEup8V5kIuNmGgEtPMdE',
  client_secret: 'kOzRSsg7OshpIM4l3phBBrUXTrhgbrZeDAaxE7bO',
  token:
    'Y2tfYlZaR2xFdXA4VjVrSXVObUdnRXRQTWRFOmtPelJTc2c3T3NocElNNGwzcGhCQnJVWFRyaGdiclplREFheEU3Yk8=',
}

export const TenantRecord = z
  .object({
    company_id: z.string().openapi({ description: "The new company's id." }),
    user_id: z
      .string()
      .openapi({ description: "Its one user's id (balance and Providers are per user)." }),
    client_id: z.string().openapi({ description: "The user's client id, for HTTP Basic." }),
    client_secret: z
      .string()
      .openapi({ description: "The user's secret: shown this once, stored hashed." }),
    token: z.string().openapi({
      description:
        'base64(client_id:client_secret): what follows `Basic ` in the Authorization header.',
    }),
  })
  .openapi('Tenant', { example: TENANT_EXAMPLE })
export type TenantRecord = z.output<typeof TenantRecord>

export const tenantRecord = (t: Tenant): TenantRecord => ({
  company_id: t.companyId,
  user_id: t.userId,
  client_id: t.clientId,
  client_secret: t.clientSecret,
  token: t.token,
})

/** TENANT_EXAMPLE's company after PATCH {"api_active": false}. */
const COMPANY_EXAMPLE = {
  company_id: 'co_lLpkYQYiAsTwzsCG0spoEms1',
  name: 'Loja Teste Ltda',
  api_active: false,
  created_at: '2026-03-01T12:00:00.000000Z',
  updated_at: '2026-03-01T12:00:00.000000Z',
}

export const CompanyRecord = z
  .object({
    company_id: z.string().openapi({ description: "The company's id." }),
    name: z.string().openapi({
      description: "Its name (the BR Code's merchant name, folded to ASCII and cut to 25).",
    }),
    api_active: z
      .boolean()
      .openapi({ description: 'false: both POSTs of the contract answer 403.' }),
    created_at: iso.openapi({ description: 'When it was created (virtual time).' }),
    updated_at: iso.openapi({ description: 'When it last changed (virtual time).' }),
  })
  .openapi('CompanyRecord', { example: COMPANY_EXAMPLE })
export type CompanyRecord = z.output<typeof CompanyRecord>

export const companyRecord = (co: Company): CompanyRecord => ({
  company_id: co.id,
  name: co.name,
  api_active: co.apiActive,
  created_at: isoMicros(co.createdAt),
  updated_at: isoMicros(co.updatedAt),
})

const LedgerEntryRecord = z
  .object({
    amount: z.int().openapi({ description: 'Cents moved: positive credits, negative debits.' }),
    kind: z.enum(LEDGER_KINDS).openapi({ description: 'Why the balance moved.' }),
    reference: z.string().nullable().openapi({
      description:
        'The charge or transfer it belongs to (its transaction_id); null for openings and adjustments.',
    }),
    at: iso.openapi({ description: 'When it moved (virtual time).' }),
  })
  .openapi('LedgerEntry')

/** loja-exemplo-user's balance after TRANSFER_EXAMPLE and CHARGE_EXAMPLE (the default scenario opens it at R$ 10.000,00). */
export const BALANCE_EXAMPLE = {
  balance: 998500,
  entries: [
    {
      amount: 1000,
      kind: 'charge_paid',
      reference: '087HVGqaTg0ZvRMkeazdQv9xe49IswOY',
      at: '2026-03-01T12:00:00.000000Z',
    },
    {
      amount: -2500,
      kind: 'transfer_debit',
      reference: 'E00000000202603011200000002Fln5I',
      at: '2026-03-01T12:00:00.000000Z',
    },
    { amount: 1000000, kind: 'opening', reference: null, at: '2026-03-01T12:00:00.000000Z' },
  ],
}

export const BalanceRecord = z
  .object({
    balance: z.int().openapi({ description: 'Available balance in cents; never negative.' }),
    entries: z.array(LedgerEntryRecord).openapi({
      description: 'The ledger, newest first (at most 500): the balance is the sum of all entries.',
    }),
  })
  .openapi('Balance', { example: BALANCE_EXAMPLE })
export type BalanceRecord = z.output<typeof BalanceRecord>

export const balanceRecord = (balance: number, entries: LedgerEntry[]): BalanceRecord => ({
  balance,
  entries: entries.map((e) => ({
    amount: e.amount,
    kind: e.kind,
    reference: e.reference,
    at: isoMicros(e.at),
  })),
})
