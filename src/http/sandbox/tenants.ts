// Tenants and users: create, change and remove companies; set a user's Providers and balance.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { OPERATIONS } from '../../domain/enums.js'
import { createTenant, deleteCompany, updateCompany } from '../../operations/tenants.js'
import { setBalance, setProviders, userCompany } from '../../operations/users.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute, noContent } from './control-route.js'
import {
  BALANCE_EXAMPLE,
  BalanceRecord,
  balanceRecord,
  CompanyRecord,
  companyRecord,
  TENANT_EXAMPLE,
  TenantRecord,
  tenantRecord,
} from './records/tenant.js'
import { CHARGE_EXAMPLE } from './records/charge.js'
import { idParam, jsonAnswer, jsonBody, orNull, Provider } from './schemas.js'

const Providers = z
  .object({
    in: orNull(Provider)
      .optional()
      .openapi({ description: 'The charges Provider; null removes it (charges answer 422).' }),
    out: orNull(Provider)
      .optional()
      .openapi({ description: 'The transfers Provider; null removes it (transfers answer 422).' }),
  })
  .strict()
const NewCompany = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Its name (default: a generated one).' }),
    api_active: z
      .boolean()
      .default(true)
      .openapi({ description: 'false: both POSTs of the contract answer 403.' }),
    balance: z
      .int()
      .min(0)
      .max(999_999_999_999)
      .default(0)
      .openapi({ description: 'Opening balance in cents.' }),
    providers: Providers.optional().openapi({
      description: "Its user's Providers (default: both, supporting their operation).",
    }),
    permissions: z
      .array(z.enum(OPERATIONS))
      .max(OPERATIONS.length)
      .optional()
      .openapi({ description: "Its user's permissions (default: both); one missing answers 403." }),
  })
  .strict()
  .openapi('NewCompany', { example: { name: 'Loja Teste Ltda', balance: 100000 } })

export function mountTenants(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const balanceView = (userId: string) =>
    balanceRecord(ctx.store.ledger.balance(userId) ?? 0, ctx.store.ledger.entries(userId))

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/companies',
      summary: 'Create an isolated tenant',
      description:
        'Defaults: active, both Providers, both permissions, balance 0. `token` is what follows `Basic `.',
      request: { body: jsonBody(NewCompany, false) },
      responses: { 201: jsonAnswer('The new tenant and its credentials.', TenantRecord) },
    }),
    'admin',
    async (c, { body: b }) => {
      if (b.name === undefined) await ctx.fakes.ready()
      const t = createTenant(ctx, {
        name: b.name,
        apiActive: b.api_active,
        balance: b.balance,
        providers: b.providers,
        permissions: b.permissions,
      })
      return c.json(tenantRecord(t), 201)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'patch',
      path: '/companies/{company_id}',
      summary: 'Change a company',
      request: {
        params: idParam('company_id', TENANT_EXAMPLE.company_id),
        body: jsonBody(
          z
            .object({
              api_active: z
                .boolean()
                .optional()
                .openapi({ description: 'false: both POSTs of the contract answer 403.' }),
              name: z.string().min(1).max(100).optional().openapi({ description: 'A new name.' }),
            })
            .strict()
            .openapi({ example: { api_active: false } }),
        ),
      },
      responses: { 200: jsonAnswer('The company.', CompanyRecord) },
    }),
    'admin',
    (c, { params, body }) => {
      return c.json(
        companyRecord(
          updateCompany(ctx, params.company_id, { name: body.name, apiActive: body.api_active }),
        ),
        200,
      )
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'delete',
      path: '/companies/{company_id}',
      summary: 'Remove a tenant and everything it owns',
      request: { params: idParam('company_id', TENANT_EXAMPLE.company_id) },
      responses: { 204: { description: 'Removed.' } },
    }),
    'admin',
    (c, { params }) => {
      deleteCompany(ctx, params.company_id)
      deps.journal.clear(params.company_id)
      return noContent(c)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'put',
      path: '/users/{user_id}/providers',
      summary: "Set a user's Providers",
      description: 'Only the directions given change; `null` removes one.',
      request: {
        params: idParam('user_id', CHARGE_EXAMPLE.user_id),
        body: jsonBody(Providers.openapi({ example: { out: null } })),
      },
      responses: {
        200: jsonAnswer(
          "The user's Providers.",
          z
            .object({
              in: orNull(Provider).openapi({
                description: 'The charges Provider; null when none.',
              }),
              out: orNull(Provider).openapi({
                description: 'The transfers Provider; null when none.',
              }),
            })
            .openapi('UserProviders', {
              example: { in: { name: 'Banco Exemplo', operations: ['charge'] }, out: null },
            }),
        ),
      },
    }),
    'admin',
    (c, { params, body }) => {
      setProviders(ctx, params.user_id, body)
      const providers = ctx.store.identity.providers(params.user_id)
      return c.json({ in: providers.in ?? null, out: providers.out ?? null })
    },
  )

  const userParams = idParam('user_id', CHARGE_EXAMPLE.user_id)
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/users/{user_id}/balance',
      summary: "A user's balance and ledger (newest first)",
      request: { params: userParams },
      responses: { 200: jsonAnswer('The balance.', BalanceRecord) },
    }),
    'scoped',
    (c, { params }) => {
      userCompany(ctx, params.user_id, c.get('scope').companyId)
      return c.json(balanceView(params.user_id), 200)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'put',
      path: '/users/{user_id}/balance',
      summary: "Set a user's balance (an adjustment entry)",
      request: {
        params: userParams,
        body: jsonBody(
          z
            .object({
              amount: z.int().min(0).max(999_999_999_999).openapi({
                description:
                  'The new balance in cents (an adjustment entry makes up the difference).',
              }),
            })
            .strict()
            .openapi({ example: { amount: 100000 } }),
        ),
      },
      responses: {
        200: jsonAnswer('The balance.', BalanceRecord, {
          set: {
            summary: 'BALANCE_EXAMPLE set to 100000',
            value: {
              balance: 100000,
              entries: [
                {
                  amount: -898500,
                  kind: 'adjustment',
                  reference: null,
                  at: '2026-03-01T12:00:00.000000Z',
                },
                ...BALANCE_EXAMPLE.entries,
              ],
            },
          },
        }),
      },
    }),
    'scoped',
    (c, { params, body }) => {
      setBalance(ctx, params.user_id, body.amount, c.get('scope').companyId)
      return c.json(balanceView(params.user_id))
    },
  )
}
