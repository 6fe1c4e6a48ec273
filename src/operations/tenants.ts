// Use cases on tenants: create an isolated company with one user and one credential, change a
// company, remove one with everything it owns.
import { OPERATIONS } from '../domain/enums.js'
import { AppError, notFound } from '../domain/errors.js'
import type { Company, Operation, Provider } from '../domain/types.js'
import { hashSecret } from './authenticate.js'
import { assertCompaniesWithinLimit, emit, moveMoney, type Context } from './context.js'

/** What a request asks; each field is named, undefined when the request left it out, so the handler that builds it cannot forget one. */
export interface NewTenant {
  name: string | undefined
  apiActive: boolean | undefined
  balance: number | undefined
  providers: { in?: Provider | null; out?: Provider | null } | undefined
  permissions: Operation[] | undefined
}

export interface Tenant {
  companyId: string
  userId: string
  clientId: string
  clientSecret: string
  /** What follows `Basic ` in the Authorization header. */
  token: string
}

export const DEFAULT_PROVIDERS = {
  in: { name: 'Sandbox Bank', operations: ['charge'] },
  out: { name: 'Sandbox Bank', operations: ['transfer'] },
} satisfies Record<'in' | 'out', Provider>

/** Needs `ctx.fakes.ready()` when no name is given. */
export function createTenant(ctx: Context, input: NewTenant): Tenant {
  const { store, ids } = ctx
  return store.txDecided(
    () => {
      assertCompaniesWithinLimit(ctx, 1)
      const now = ctx.clock.now()
      // Drawn in this order, as seeded runs have always drawn them. A scenario names its own ids,
      // which may be ids a seeded run drew before (copied from a snapshot): such an id is drawn again.
      let companyId = ids.prefixed('co')
      let userId = ids.prefixed('usr')
      let clientId = ids.prefixed('ck')
      for (
        let taken = store.identity.taken(companyId, userId, clientId);
        taken.company || taken.user || taken.client;
        taken = store.identity.taken(companyId, userId, clientId)
      ) {
        if (taken.company) companyId = ids.prefixed('co')
        if (taken.user) userId = ids.prefixed('usr')
        if (taken.client) clientId = ids.prefixed('ck')
      }
      const clientSecret = ids.string(40)
      const company: Company = {
        id: companyId,
        name: input.name ?? ctx.fakes.companyName(),
        city: 'Sao Paulo',
        apiActive: input.apiActive ?? true,
        createdAt: now,
        updatedAt: now,
      }
      const token = Buffer.from(`${clientId}:${clientSecret}`).toString('base64')
      return {
        company,
        tenant: { companyId, userId, clientId, clientSecret, token },
        secretHash: hashSecret(clientSecret),
      }
    },
    ({ company, tenant, secretHash }) => {
      const { companyId, userId, clientId } = tenant
      const now = company.createdAt
      store.identity.insertCompany(company)
      store.identity.insertUser({
        id: userId,
        companyId,
        name: company.name,
        permissions: input.permissions ?? [...OPERATIONS],
        createdAt: now,
      })
      for (const direction of ['in', 'out'] as const) {
        const provider =
          input.providers && direction in input.providers
            ? input.providers[direction]
            : DEFAULT_PROVIDERS[direction]
        if (provider) store.identity.setProvider(userId, direction, provider)
      }
      store.identity.insertCredential({
        clientId,
        userId,
        secretHash,
        environment: 'sandbox',
        revoked: false,
        createdAt: now,
      })
      if (input.balance) moveMoney(ctx, companyId, userId, input.balance, 'opening', null, now)
      emit(ctx, 'company.created', now, companyId, {
        company_id: companyId,
        user_id: userId,
        name: company.name,
      })
    },
  ).tenant
}

export function updateCompany(
  ctx: Context,
  companyId: string,
  change: { name?: string; apiActive?: boolean },
): Company {
  const { store } = ctx
  return store.tx(() => {
    const company = store.identity.company(companyId)
    if (!company) throw notFound('Company')
    const now = ctx.clock.now()
    const next: Company = {
      ...company,
      name: change.name ?? company.name,
      apiActive: change.apiActive ?? company.apiActive,
      updatedAt: now,
    }
    store.identity.updateCompany(next)
    emit(ctx, 'company.updated', now, companyId, {
      company_id: companyId,
      name: next.name,
      api_active: next.apiActive,
    })
    return next
  })
}

export function deleteCompany(ctx: Context, companyId: string): void {
  const { store } = ctx
  store.tx(() => {
    if (!store.identity.company(companyId)) throw notFound('Company')
    // Events keep no foreign key (the log is append-only), so they go explicitly.
    store.db.prepare('DELETE FROM events WHERE company_id = ?').run(companyId)
    if (!store.identity.deleteCompany(companyId)) throw new AppError('internal')
  })
  ctx.readiness?.forget(companyId)
}
