// Use case: apply a scenario on top of the current state, in one transaction. Settings merge
// key by key; companies and keys with an existing id are replaced (with everything they own),
// others are added; rules are appended. Opening balances are ledger entries like any other.
import { AppError } from '../domain/errors.js'
import type { Company } from '../domain/types.js'
import type { Scenario } from '../scenarios/schema.js'
import { hashSecret } from './authenticate.js'
import { assertCompaniesWithinLimit, emit, moveMoney, type Context } from './context.js'

/** Applies `scenario` on top of the state; `base` marks it as the scenario the state started from. */
export function applyScenario(ctx: Context, scenario: Scenario, name: string, base = false): void {
  const { store } = ctx
  store.tx(() => {
    const now = ctx.clock.now()
    store.setup.setSettings({ ...store.setup.settings(), ...scenario.settings })
    for (const c of scenario.companies) {
      const existing = store.identity.company(c.id)
      if (existing) store.identity.deleteCompany(c.id)
      const company: Company = {
        id: c.id,
        name: c.name,
        city: c.city,
        apiActive: c.api_active,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      }
      store.identity.insertCompany(company)
      for (const u of c.users) {
        if (store.identity.userCompany(u.id) !== undefined) {
          throw new AppError(
            'invalid_input',
            `user id "${u.id}" already belongs to another company`,
          )
        }
        store.identity.insertUser({
          id: u.id,
          companyId: c.id,
          name: u.name ?? u.id,
          permissions: u.permissions,
          createdAt: now,
        })
        for (const direction of ['in', 'out'] as const) {
          const p = u.providers[direction]
          if (p) store.identity.setProvider(u.id, direction, p)
        }
        for (const cr of u.credentials) {
          if (store.identity.clientIdTaken(cr.client_id)) {
            throw new AppError('invalid_input', `client_id "${cr.client_id}" is already in use`)
          }
          store.identity.insertCredential({
            clientId: cr.client_id,
            userId: u.id,
            secretHash: hashSecret(cr.client_secret),
            environment: cr.environment,
            revoked: cr.revoked,
            createdAt: now,
          })
        }
        if (u.balance > 0) moveMoney(ctx, c.id, u.id, u.balance, 'opening', null, now)
      }
    }
    for (const k of scenario.pix_keys) {
      store.setup.putPixKey({
        key: k.key,
        type: k.type,
        active: k.active,
        ownerName: k.owner_name ?? null,
      })
    }
    // Scenarios count too: checked once the companies are in, so replaced ones are not counted twice.
    if (scenario.companies.length) assertCompaniesWithinLimit(ctx)
    store.setup.appendRules(scenario.rules)
    if (base) store.setup.meta.set('scenario', name)
    emit(ctx, 'scenario.applied', now, null, {
      name,
      companies: scenario.companies.map((c) => c.id),
    })
  })
}
