// Tenants and users: create, change and remove companies; set a user's Providers and balance.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import { createTenant, deleteCompany, updateCompany } from '../../operations/tenants.js'
import { setBalance, setProviders, userCompany } from '../../operations/users.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { idParam, Provider } from './schemas.js'

const NewCompany = z
  .object({
    name: z.string().min(1).max(100).optional(),
    api_active: z.boolean().default(true),
    balance: z.int().min(0).max(999_999_999_999).default(0),
    providers: z.object({ in: Provider.nullable().optional(), out: Provider.nullable().optional() }).strict().optional(),
    permissions: z.array(z.enum(['charge', 'transfer'])).max(2).optional(),
  })
  .strict()
  .openapi('NewCompany')
const Tenant = z
  .object({ company_id: z.string(), user_id: z.string(), client_id: z.string(), client_secret: z.string(), token: z.string() })
  .openapi('Tenant')
const CompanyView = z.object({ company_id: z.string(), name: z.string(), api_active: z.boolean(), created_at: z.string(), updated_at: z.string() })
const Balance = z
  .object({ balance: z.int(), entries: z.array(z.object({ amount: z.int(), kind: z.string(), reference: z.string().nullable(), at: z.string() })) })
  .openapi('Balance')

export function mountTenants(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const balanceView = (userId: string) => ({
    balance: ctx.store.ledger.balance(userId) ?? 0,
    entries: ctx.store.ledger.entries(userId).map((e) => ({ amount: e.amount, kind: e.kind, reference: e.reference, at: isoMicros(e.at) })),
  })

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/companies',
      summary: 'Create an isolated tenant',
      description: 'Defaults: active, both Providers, both permissions, balance 0. `token` is what follows `Basic `.',
      request: { body: { required: false, content: { 'application/json': { schema: NewCompany } } } },
      responses: { 201: { description: 'The new tenant and its credentials.', content: { 'application/json': { schema: Tenant } } } },
    }),
    'admin',
    async (c) => {
      const b = c.get('input').body
      if (b.name === undefined) await ctx.fakes.ready()
      const t = createTenant(ctx, { name: b.name, apiActive: b.api_active, balance: b.balance, providers: b.providers, permissions: b.permissions })
      return c.json({ company_id: t.companyId, user_id: t.userId, client_id: t.clientId, client_secret: t.clientSecret, token: t.token }, 201)
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
        params: idParam('company_id'),
        body: { required: true, content: { 'application/json': { schema: z.object({ api_active: z.boolean().optional(), name: z.string().min(1).max(100).optional() }).strict() } } },
      },
      responses: { 200: { description: 'The company.', content: { 'application/json': { schema: CompanyView } } } },
    }),
    'admin',
    (c) => {
      const { params, body } = c.get('input')
      const co = updateCompany(ctx, params.company_id, { name: body.name, apiActive: body.api_active })
      return c.json({ company_id: co.id, name: co.name, api_active: co.apiActive, created_at: isoMicros(co.createdAt), updated_at: isoMicros(co.updatedAt) })
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({ method: 'delete', path: '/companies/{company_id}', summary: 'Remove a tenant and everything it owns', request: { params: idParam('company_id') }, responses: { 204: { description: 'Removed.' } } }),
    'admin',
    (c) => {
      const id = c.get('input').params.company_id
      deleteCompany(ctx, id)
      deps.journal.clear(id)
      return c.body(null, 204)
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'put',
      path: '/users/{user_id}/providers',
      summary: 'Set a user\'s Providers',
      description: 'Only the directions given change; `null` removes one.',
      request: {
        params: idParam('user_id'),
        body: { required: true, content: { 'application/json': { schema: z.object({ in: Provider.nullable().optional(), out: Provider.nullable().optional() }).strict() } } },
      },
      responses: { 200: { description: 'The user\'s Providers.', content: { 'application/json': { schema: z.object({ in: Provider.nullable(), out: Provider.nullable() }) } } } },
    }),
    'admin',
    (c) => {
      const { params, body } = c.get('input')
      setProviders(ctx, params.user_id, body)
      const providers = ctx.store.identity.providers(params.user_id)
      return c.json({ in: providers.in ?? null, out: providers.out ?? null })
    },
  )

  const userParams = idParam('user_id')
  controlRoute(
    app,
    deps,
    createRoute({ method: 'get', path: '/users/{user_id}/balance', summary: 'A user\'s balance and ledger (newest first)', request: { params: userParams }, responses: { 200: { description: 'The balance.', content: { 'application/json': { schema: Balance } } } } }),
    'scoped',
    (c) => {
      const userId = c.get('input').params.user_id
      userCompany(ctx, userId, c.get('scope').companyId)
      return c.json(balanceView(userId))
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'put',
      path: '/users/{user_id}/balance',
      summary: 'Set a user\'s balance (an adjustment entry)',
      request: { params: userParams, body: { required: true, content: { 'application/json': { schema: z.object({ amount: z.int().min(0).max(999_999_999_999) }).strict() } } } },
      responses: { 200: { description: 'The balance.', content: { 'application/json': { schema: Balance } } } },
    }),
    'scoped',
    (c) => {
      const { params, body } = c.get('input')
      setBalance(ctx, params.user_id, body.amount, c.get('scope').companyId)
      return c.json(balanceView(params.user_id))
    },
  )
}
