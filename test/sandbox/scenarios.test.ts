// Reset and scenarios through the control plane, and the extra scenarios of scenarios/.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listScenarios } from '../../src/scenarios/loader.js'
import {
  AUTH,
  basic,
  rowCounts,
  storeSnapshot,
  SCENARIOS_DIR,
  startTestSandbox,
  tenantDoc,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

describe('POST /_sandbox/reset', () => {
  it('returns everything to a fresh start: state, clock, journal, outcomes, faults', async () => {
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 5000, pix_key: 'a@b.co', pix_type: 'EMAIL' },
    })
    await sb.admin('POST', '/companies', { name: 'Temp' })
    await sb.admin('POST', '/outcomes', { status: 'failed' })
    await sb.admin('POST', '/faults', { operation: 'charge', status: 500 })
    await sb.admin('POST', '/clock/advance', { seconds: 100 })
    sb.apply({ settings: { charge_ttl_seconds: 5 } })
    const res = await sb.admin('POST', '/reset')
    expect(res.body).toMatchObject({ scenario: 'default' })
    expect(sb.sandbox.store.ledger.balance('loja-exemplo-user')).toBe(1_000_000)
    expect(rowCounts(sb)).toMatchObject({ charges: 0, transfers: 0 })
    expect(
      sb.sandbox.store.db
        .prepare("SELECT count(*) FROM companies WHERE name = 'Temp'")
        .pluck()
        .get(),
    ).toBe(0)
    expect((await sb.admin('GET', '/outcomes')).body.data).toEqual([])
    expect((await sb.admin('GET', '/faults')).body.data).toEqual([])
    expect((await sb.admin('GET', '/clock')).body.offset_seconds).toBe(0)
    expect(sb.sandbox.store.setup.settings().charge_ttl_seconds).toBe(3600)
    const journal = (await sb.admin('GET', '/requests?limit=500')).body.data
    expect(journal[journal.length - 1]).toMatchObject({ method: 'POST', path: '/_sandbox/reset' })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(200)
  })

  it('loads another scenario, and refuses an unknown one leaving the state as it was', async () => {
    expect((await sb.admin('POST', '/reset', { scenario: 'many-users' })).status).toBe(200)
    expect((await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(401)
    const before = storeSnapshot(sb)
    expect(await sb.admin('POST', '/reset', { scenario: 'nope' })).toMatchObject({
      status: 404,
      body: { detail: 'Scenario "nope" not found' },
    })
    expect(storeSnapshot(sb)).toEqual(before)
  })
})

describe('/_sandbox/scenarios', () => {
  it('lists the scenarios of the folder with their descriptions', async () => {
    const res = await sb.admin('GET', '/scenarios')
    expect(res.body.map((s: { name: string }) => s.name)).toEqual([
      'default',
      'many-users',
      'short-lived-charges',
      'unreliable-transfers',
    ])
    expect(res.body.every((s: { description: string }) => s.description.length > 20)).toBe(true)
  })

  it('applies an inline document on top: settings merge, companies added, rules appended', async () => {
    const res = await sb.admin('POST', '/scenarios', {
      document: {
        settings: { insufficient_balance: 'failed' },
        companies: [
          {
            id: 'extra',
            name: 'Extra',
            users: [
              {
                id: 'extra-u',
                credentials: [{ client_id: 'extra', client_secret: 'extra-secret' }],
                providers: { out: { name: 'B', operations: ['transfer'] } },
              },
            ],
          },
        ],
        rules: {
          transfers: [
            { when: { amount: 999 }, then: { status: 'failed', message: 'Nove nove nove' } },
          ],
        },
      },
    })
    expect(res.status).toBe(200)
    expect(sb.sandbox.store.setup.settings()).toMatchObject({
      insufficient_balance: 'failed',
      charge_ttl_seconds: 3600,
    })
    const send = (auth: string, amount: number) =>
      sb.request('POST', '/api/v1/hub/transactions/out', {
        auth,
        json: { amount, pix_key: 'a@b.co', pix_type: 'EMAIL' },
      })
    expect((await send(basic('extra', 'extra-secret'), 1)).body).toMatchObject({
      status: 'failed',
      message: 'Insufficient balance',
    })
    expect((await send(AUTH.main, 999)).body).toMatchObject({
      status: 'failed',
      message: 'Nove nove nove',
    })
    expect((await send(AUTH.main, 666)).body.message).toBe(
      'Transfer rejected by the receiving institution',
    )
    // GET /scenario shows what is now in force: the merged settings and the rules appended, last.
    const inForce = (await sb.request('GET', '/_sandbox/scenario', { auth: AUTH.main })).body
    expect(inForce).toMatchObject({
      name: 'default',
      settings: { insufficient_balance: 'failed', charge_ttl_seconds: 3600 },
      inactive_keys: [{ key: 'failed@pix.example', type: 'EMAIL' }],
    })
    expect(inForce.rules.transfers.at(-1)).toEqual({
      when: { amount: 999 },
      then: { status: 'failed', message: 'Nove nove nove' },
    })
  })

  it('refuses a broken document whole, naming the path and the problem', async () => {
    const before = storeSnapshot(sb)
    const res = await sb.admin('POST', '/scenarios', {
      document: {
        settings: { charge_ttl_seconds: 5 },
        companies: [{ id: 'x', name: 'X', users: [{ id: 'u', balance: 'lots' }] }],
      },
    })
    expect(res.status).toBe(422)
    expect(res.body.detail).toBe(
      'document: companies[0].users[0].balance: Invalid input: expected number, received string',
    )
    expect(sb.sandbox.store.setup.settings().charge_ttl_seconds).toBe(3600)
    expect(storeSnapshot(sb)).toEqual(before)
    expect((await sb.admin('POST', '/scenarios', {})).status).toBe(422)
    expect((await sb.admin('POST', '/scenarios', { name: 'default', document: {} })).status).toBe(
      422,
    )
    expect((await sb.admin('POST', '/scenarios', { name: 'ghost' })).status).toBe(404)
  })

  it('every scenario file in the folder is valid', () => {
    for (const s of listScenarios(SCENARIOS_DIR)) expect(s.description).not.toMatch(/^\(invalid/)
  })
})

describe('a scenario applied on top that replaces a company with webhook subscriptions', () => {
  // Its subscriptions went with it (a cascade of the company's row); the per-company memory of
  // them must go too, or the next event queues a delivery for a subscription that is gone.
  it.each(['memory', 'file'])('leaves its next transfer recorded, on a %s store', async (kind) => {
    const dir = kind === 'file' ? mkdtempSync(join(tmpdir(), 'pix-replace-')) : undefined
    const own = dir ? await startTestSandbox({ database: join(dir, 'sandbox.db') }) : sb
    try {
      const acme = basic('acme', 'acme-secret')
      const transfer = () =>
        own.request('POST', '/api/v1/hub/transactions/out', {
          auth: acme,
          json: { amount: 100, pix_key: 'a@b.co', pix_type: 'EMAIL' },
        })
      const apply = () =>
        own.admin('POST', '/scenarios', {
          document: { companies: [tenantDoc('acme', { balance: 10_000 })] },
        })
      expect((await apply()).status).toBe(200)
      const hook = await own.request('POST', '/_sandbox/webhooks', {
        auth: acme,
        json: { url: 'http://127.0.0.1:9/hook' },
      })
      expect(hook.status).toBe(201)
      expect((await transfer()).status).toBe(200) // its subscriptions are now remembered
      expect((await apply()).status).toBe(200)
      const res = await transfer()
      expect(res.status).toBe(200)
      const id = res.body.transaction_id as string
      expect((await own.request('GET', `/_sandbox/transfers/${id}`, { auth: acme })).status).toBe(
        200,
      )
      expect(own.sandbox.store.ledger.balance('acme-user')).toBe(9_900)
    } finally {
      if (dir) {
        await own.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  })
})
