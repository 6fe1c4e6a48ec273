// SEED on a file store: a restarted sandbox draws new ids, never the ones it drew before its
// restart; and an id the store already holds, wherever it came from, is drawn again instead of
// answering 500.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/clock.js'
import { createFakes } from '../../src/fakes.js'
import { createIds } from '../../src/ids.js'
import { silentLog } from '../../src/log.js'
import { applyScenario } from '../../src/operations/apply-scenario.js'
import type { Context } from '../../src/operations/context.js'
import { createCharge } from '../../src/operations/create-charge.js'
import { createTransfer } from '../../src/operations/create-transfer.js'
import { readScenario } from '../../src/scenarios/loader.js'
import { createAuthenticator } from '../../src/operations/authenticate.js'
import { startSandbox } from '../../src/server.js'
import { openStore } from '../../src/store/index.js'
import { TABLES } from '../../src/store/tables.js'
import { AUTH, request, SCENARIOS_DIR, T0, tenantDoc, testConfig } from '../harness.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-ids-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Everything a session writes with ids of its own making, with the clock frozen. */
async function session(url: string, admin: string) {
  const bearer = `Bearer ${admin}`
  await request(url, 'POST', '/_sandbox/clock/freeze', { auth: bearer })
  const tenant = await request(url, 'POST', '/_sandbox/companies', {
    auth: bearer,
    json: { name: 'Restart Ltda' },
  })
  const charge = await request(url, 'POST', '/api/v1/hub/transactions/in', {
    auth: AUTH.main,
    json: { amount: 1000 },
  })
  const transfer = await request(url, 'POST', '/api/v1/hub/transactions/out', {
    auth: AUTH.main,
    json: { amount: 100, pix_key: 'a@b.com', pix_type: 'EMAIL' },
  })
  const webhook = await request(url, 'POST', '/_sandbox/webhooks', {
    auth: bearer,
    json: { url: 'http://127.0.0.1:9/hook' },
  })
  return [tenant, charge, transfer, webhook]
}

describe('SEED with a file store', () => {
  it('a restarted sandbox draws ids it never drew before: every write of a second session succeeds', async () => {
    const config = testConfig({ database: join(dir, 'sandbox.db'), seed: 'restart' })
    const seen: string[] = []
    for (let run = 0; run < 3; run++) {
      const sb = await startSandbox(config, { log: silentLog })
      const replies = await session(sb.url, sb.adminToken)
      expect(
        replies.map((r) => r.status),
        `run ${run + 1}`,
      ).toEqual([201, 200, 200, 201])
      seen.push(
        replies[0]!.body.company_id,
        replies[1]!.body.transaction_id,
        replies[2]!.body.transaction_id,
      )
      // A reset keeps the count of starts: after it, a restart still draws new ids.
      if (run === 1)
        expect(
          (
            await request(sb.url, 'POST', '/_sandbox/reset', {
              auth: `Bearer ${sb.adminToken}`,
              json: {},
            })
          ).status,
        ).toBe(200)
      await sb.close()
    }
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('a fresh store draws what it always drew: the first start keeps the seed as it is', async () => {
    const fromFile = await startSandbox(testConfig({ database: join(dir, 'a.db'), seed: 'same' }), {
      log: silentLog,
    })
    const inMemory = await startSandbox(testConfig({ seed: 'same' }), { log: silentLog })
    try {
      const a = await request(fromFile.url, 'POST', '/_sandbox/companies', {
        auth: `Bearer ${fromFile.adminToken}`,
        json: { name: 'X' },
      })
      const b = await request(inMemory.url, 'POST', '/_sandbox/companies', {
        auth: `Bearer ${inMemory.adminToken}`,
        json: { name: 'X' },
      })
      expect(a.body.company_id).toBe(b.body.company_id)
    } finally {
      await fromFile.close()
      await inMemory.close()
    }
  })
})

/** A use-case context on `store` whose ids come from `seed`: two of them draw the same ids. */
const contextOn = (store: ReturnType<typeof openStore>, seed: string): Context => ({
  store,
  clock: createManualClock(T0),
  ids: createIds(seed),
  locationBase: 'sandbox.test',
  fakes: createFakes(seed),
})

describe('an id the store already holds', () => {
  it('is drawn again by a charge and a transfer on a file store when the key their ids carry is taken, and the rest of the group commit stands', async () => {
    const store = openStore(join(dir, 'taken.db'))
    try {
      const ctx = contextOn(store, 'taken')
      applyScenario(ctx, readScenario(SCENARIOS_DIR, 'default'), 'default', true)
      const who = createAuthenticator(store)('sandbox-client', 'sandbox-secret')
      const charge = createCharge(ctx, who, { amount: 1000 })
      const transfer = createTransfer(ctx, who, {
        amount: 100,
        pixKey: 'a@b.com',
        pixType: 'EMAIL',
        description: null,
        headerOutcome: undefined,
      })
      await store.pendingCommit()
      // The keys the next charge's and transfer's ids would carry, taken by rows written behind
      // the store's back (as by another tool on the file): its memory of the newest is stale.
      for (const table of [TABLES.charges, TABLES.transfers]) {
        const copied = table.columns.map((c) =>
          c === 'seq' ? 'seq + 1' : c === 'id' || c === 'location_id' ? `'taken-' || ${c}` : c,
        )
        store.db
          .prepare(
            `INSERT INTO ${table.name} (${table.columns.join(', ')})
             SELECT ${copied.join(', ')} FROM ${table.name} WHERE seq = (SELECT max(seq) FROM ${table.name})`,
          )
          .run()
      }
      const other = createCharge(ctx, who, { amount: 7 }) // in the group commit the taken keys meet
      const charge2 = createCharge(ctx, who, { amount: 2000 })
      const transfer2 = createTransfer(ctx, who, {
        amount: 200,
        pixKey: 'a@b.com',
        pixType: 'EMAIL',
        description: null,
        headerOutcome: undefined,
      })
      expect(new Set([charge.id, other.id, charge2.id]).size).toBe(3)
      expect(new Set([charge.locationId, other.locationId, charge2.locationId]).size).toBe(3)
      expect(transfer2.id).not.toBe(transfer.id)
      await store.pendingCommit()
      for (const c of [charge, other, charge2]) {
        expect(store.charges.byId(c.id)?.amount).toBe(c.amount)
        expect(store.charges.byLocation(c.locationId)?.id).toBe(c.id)
      }
      for (const t of [transfer, transfer2])
        expect(store.transfers.byId(t.id)?.amount).toBe(t.amount)
      expect(store.ledger.balance(who.userId)).toBe(1_000_000 - 300)
    } finally {
      await store.close()
    }
  })

  it('is drawn again for a tenant, when a scenario named it (ids copied from an earlier seeded run)', async () => {
    /** A fresh seeded sandbox: applies a one-company scenario, then creates a tenant. */
    const run = async (company: ReturnType<typeof tenantDoc>) => {
      const sb = await startSandbox(testConfig({ seed: 'copied' }), { log: silentLog })
      try {
        const admin = { auth: `Bearer ${sb.adminToken}` }
        expect(
          (
            await request(sb.url, 'POST', '/_sandbox/scenarios', {
              ...admin,
              json: { document: { companies: [company] } },
            })
          ).status,
        ).toBe(200)
        const tenant = await request(sb.url, 'POST', '/_sandbox/companies', {
          ...admin,
          json: { name: 'Tenant' },
        })
        const whoami = await request(sb.url, 'GET', '/_sandbox/whoami', {
          auth: `Basic ${tenant.body.token}`,
        })
        return { tenant, whoami }
      } finally {
        await sb.close()
      }
    }
    const first = (await run(tenantDoc('placeholder'))).tenant.body
    // The same calls again, the scenario now naming the ids the first run's tenant got.
    const copied = tenantDoc(first.company_id)
    copied.users[0]!.id = first.user_id
    copied.users[0]!.credentials[0]!.client_id = first.client_id
    const { tenant, whoami } = await run(copied)
    expect(tenant.status).toBe(201)
    expect(tenant.body.company_id).not.toBe(first.company_id)
    expect(tenant.body.user_id).not.toBe(first.user_id)
    expect(tenant.body.client_id).not.toBe(first.client_id)
    expect(whoami.body).toMatchObject({
      company_id: tenant.body.company_id,
      user_id: tenant.body.user_id,
    })
  })
})

describe('end-to-end ids', () => {
  it('of one frozen instant never repeat and sort in the order they were made', () => {
    const ids = createIds('frozen')
    const made = Array.from({ length: 3000 }, () => ids.endToEndId(T0, '00000000'))
    expect(new Set(made).size).toBe(made.length)
    expect([...made].sort()).toEqual(made)
  })
})
