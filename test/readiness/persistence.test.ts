// Readiness is kept with the rest of the state on a file store: across a restart, and across a
// kill -9 but for its last second, without harming the store; and recording it adds no write to
// a call that writes nothing (it is stored from memory once a second, whatever the call rate).
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { eventually } from '../hang.js'
import { AUTH, request, testConfig } from '../harness.js'
import { admin as adminOf, call, FROM_SOURCES, startServer } from '../reliability/server.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-readiness-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const start = (database: string) => startSandbox(testConfig({ database }), { log: silentLog })
const company = (sb: RunningSandbox, headers: Record<string, string> = {}) =>
  request(sb.url, 'GET', '/api/v1/user/company', { auth: AUTH.main, headers })
const report = async (sb: RunningSandbox) =>
  (await request(sb.url, 'GET', '/_sandbox/readiness', { auth: `Bearer ${sb.adminToken}` })).body
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const totalChanges = (sb: RunningSandbox) =>
  sb.sandbox.store.db.prepare('SELECT total_changes()').pluck().get() as number

describe('readiness on a file store', () => {
  it('is kept across a restart: coverage, counts, findings and since', async () => {
    const database = join(dir, 'restart.db')
    const first = await start(database)
    await company(first, { accept: 'text/html' })
    await request(first.url, 'POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.production,
      json: { amount: 1000 },
    })
    const before = await report(first)
    await first.close()
    const second = await start(database)
    try {
      expect(await report(second)).toEqual(before)
      expect(before.findings.map((f: { id: string }) => f.id)).toEqual([
        'production_credentials',
        'missing_accept',
      ])
      // And a reset is kept too: the wipe took the rows in its own transaction.
      await request(second.url, 'POST', '/_sandbox/reset', {
        auth: `Bearer ${second.adminToken}`,
        json: {},
      })
    } finally {
      await second.close()
    }
    const third = await start(database)
    try {
      const after = await report(third)
      expect([after.coverage.met, after.findings]).toEqual([0, []])
    } finally {
      await third.close()
    }
  })

  it("keeps a deleted tenant's part of the run across a restart", async () => {
    const database = join(dir, 'deleted.db')
    const first = await start(database)
    const admin = (sb: RunningSandbox, method: string, path: string, json?: unknown) =>
      request(sb.url, method, `/_sandbox${path}`, { auth: `Bearer ${sb.adminToken}`, json })
    let tenant: { company_id: string; token: string }
    try {
      tenant = (await admin(first, 'POST', '/companies', { name: 'Loja Go' })).body
      await request(first.url, 'GET', '/api/v1/user/company', {
        auth: `Basic ${tenant.token}`,
        headers: { accept: 'text/html' },
      })
      expect((await admin(first, 'DELETE', `/companies/${tenant.company_id}`)).status).toBe(204)
    } finally {
      await first.close()
    }
    const second = await start(database)
    try {
      const r = await report(second)
      expect(r.findings.map((f: any) => [f.id, f.example.company_id])).toEqual([
        ['missing_accept', tenant.company_id],
      ])
      expect(
        (await admin(second, 'GET', `/readiness?company_id=${tenant.company_id}`)).status,
      ).toBe(404)
    } finally {
      await second.close()
    }
  })

  it('adds no write to a call that writes nothing, and stores a burst once a second', async () => {
    const sb = await start(join(dir, 'writes.db'))
    try {
      await sleep(1100) // what the start itself made dirty is stored
      const puts: number[] = []
      const put = sb.sandbox.store.readiness.put
      sb.sandbox.store.readiness.put = (...args) => (puts.push(Date.now()), put(...args))
      const counting = performance.now()
      const changes = totalChanges(sb)
      expect((await company(sb)).status).toBe(200)
      // Answered and recorded (after the answer, in memory): nothing written, no transaction open.
      expect(totalChanges(sb)).toBe(changes)
      expect(sb.sandbox.store.pendingCommit()).toBeUndefined()
      for (let i = 0; i < 200; i++) await company(sb)
      // Stored whole by a flush after the last call, whenever the machine runs it.
      const stored = () =>
        sb.sandbox.store.db
          .prepare("SELECT data FROM readiness WHERE owner = 'loja-exemplo'")
          .pluck()
          .get() as string | undefined
      await eventually(
        () => JSON.parse(stored() ?? '{}').behaviours?.['company.read'] === 201,
        () => `the burst was never stored whole: ${stored()}`,
      )
      expect(totalChanges(sb)).toBeGreaterThan(changes)
      // One store (of the one company's entry) per second that passed, however many calls: 3 on
      // an idle machine; a loaded one takes longer over the 200 calls, and has more seconds.
      expect(puts.length).toBeLessThanOrEqual(Math.ceil((performance.now() - counting) / 1000) + 1)
      expect(
        (await report(sb)).behaviours.find((b: { id: string }) => b.id === 'company.read').count,
      ).toBe(201)
    } finally {
      await sb.close()
    }
  })

  it('survives a kill -9: what was recorded over a second before is there, and the store is whole', async () => {
    const database = join(dir, 'killed.db')
    const first = await startServer(database, {}, FROM_SOURCES)
    try {
      for (let i = 0; i < 20; i++)
        expect((await call(first.url, 'GET', '/api/v1/user/company')).status).toBe(200)
      expect(
        (await call(first.url, 'POST', '/api/v1/hub/transactions/in', { amount: 0 })).status,
      ).toBe(422)
      // Once the server has stored them (once a second, in its own time on a loaded machine).
      await eventually(() => {
        const db = new Database(database, { readonly: true, fileMustExist: true })
        try {
          const data = db
            .prepare("SELECT data FROM readiness WHERE owner = 'loja-exemplo'")
            .pluck()
            .get() as string | undefined
          const stored = data ? JSON.parse(data).behaviours : {}
          return stored['company.read'] >= 20 && stored['charge.invalid'] === 1
        } finally {
          db.close()
        }
      }, 'the server never stored what was recorded')
      // Recorded in the last moment before the kill: may be lost, never half-written.
      for (let i = 0; i < 50; i++) await call(first.url, 'GET', '/api/v1/user/company')
    } finally {
      first.child.kill('SIGKILL')
      await new Promise((r) => first.child.once('exit', r))
    }
    const db = new Database(database, { readonly: true })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    const second = await startServer(database, {}, FROM_SOURCES)
    try {
      const r = (await adminOf(second.url, 'GET', '/readiness')).body
      const count = (id: string) => r.behaviours.find((b: { id: string }) => b.id === id).count
      expect(count('company.read')).toBeGreaterThanOrEqual(20)
      expect(count('company.read')).toBeLessThanOrEqual(70)
      expect(count('charge.invalid')).toBe(1)
    } finally {
      await second.stop()
    }
  })
})

describe("one company's readiness on a file store", () => {
  it("is bounded, and stored on its own: a bystander's report survives a restart", async () => {
    const database = join(dir, 'bounded.db')
    const first = await start(database)
    const readiness = first.sandbox.readiness!
    // The bystander, a tenant: a finding of its own.
    const tenant = (
      await request(first.url, 'POST', '/_sandbox/companies', {
        auth: `Bearer ${first.adminToken}`,
        json: { name: 'Bystander' },
      })
    ).body
    const bystander = async (sb: RunningSandbox) =>
      (
        await request(sb.url, 'GET', '/_sandbox/readiness', {
          auth: `Basic ${tenant.token}`,
        })
      ).body
    await request(first.url, 'GET', '/api/v1/user/company', {
      auth: `Basic ${tenant.token}`,
      headers: { accept: 'text/html' },
    })
    // The main company's receivers, each with a URL of 2,000 characters, all refusing genuine
    // deliveries, and receiver checks of five of them: far past the table's 64 KiB a row.
    const url = (i: number) =>
      `http://127.0.0.1:9/${String(i).padStart(4, '0')}/${'x'.repeat(2000)}`
    for (let i = 0; i < 20; i++)
      readiness.attempt({
        companyId: 'loja-exemplo',
        subscriptionId: `wh_${i}`,
        url: url(i),
        eventType: 'charge.paid',
        deliveryId: `dlv_${i}`,
        statusCode: 401,
        latencyMs: 3,
        stalledMs: 0,
        timedOut: false,
        badSignature: false,
        duplicate: false,
        retried: false,
        acknowledgedBefore: false,
        signed: true,
        body: '{}',
      })
    for (let i = 0; i < 5; i++)
      readiness.checked('loja-exemplo', `wh_${i}`, url(i), {
        passed: false,
        checks: ['valid', 'duplicate', 'bad_signature', 'stale_timestamp', 'unknown_type'].map(
          (id) => ({
            id: id as never,
            expected: '2xx' as never,
            status: null,
            ms: 1,
            passed: false,
            advice: 'a'.repeat(400),
            error: `no connection to ${url(i)}`,
          }),
        ),
      })
    const before = await bystander(first)
    expect(before.findings.map((f: { id: string }) => f.id)).toEqual(['missing_accept'])
    await first.close()
    const second = await start(database)
    try {
      expect(await bystander(second)).toEqual(before)
      expect((await report(second)).findings.map((f: { id: string }) => f.id)).toContain(
        'receiver_rejects_valid_signature',
      )
      const sizes = second.sandbox.store.db
        .prepare('SELECT owner, length(data) AS size FROM readiness')
        .all() as { owner: string; size: number }[]
      expect(sizes.map((s) => s.owner).sort()).toEqual(
        ['', 'loja-exemplo', tenant.company_id].sort(),
      )
      for (const s of sizes) expect(s.size).toBeLessThanOrEqual(64 * 1024)
    } finally {
      await second.close()
    }
  })
})

describe('storing readiness', () => {
  it("stores each company's entry on its own: one that cannot be stored keeps no other from it, and is not tried every second", async () => {
    const errors: unknown[] = []
    const sb = await startSandbox(testConfig({ database: join(dir, 'apart.db') }), {
      log: { ...silentLog, error: (_msg, fields) => void errors.push(fields) },
    })
    try {
      const tenant = (
        await request(sb.url, 'POST', '/_sandbox/companies', {
          auth: `Bearer ${sb.adminToken}`,
          json: { name: 'Bystander' },
        })
      ).body
      const put = sb.sandbox.store.readiness.put
      sb.sandbox.store.readiness.put = (owner, ...rest) => {
        if (owner === 'loja-exemplo') throw new Error('a row this table refuses')
        put(owner, ...rest)
      }
      await company(sb)
      await request(sb.url, 'GET', '/api/v1/user/company', { auth: `Basic ${tenant.token}` })
      sb.sandbox.readiness!.flush()
      await sb.sandbox.store.pendingCommit()
      const stored = () =>
        sb.sandbox.store.db.prepare('SELECT owner FROM readiness').pluck().all() as string[]
      expect(stored()).toContain(tenant.company_id)
      expect(stored()).not.toContain('loja-exemplo')
      expect(errors).toHaveLength(1)
      sb.sandbox.readiness!.flush()
      expect(errors).toHaveLength(1)
      // Once it changes again, it is tried again.
      sb.sandbox.store.readiness.put = put
      await company(sb)
      sb.sandbox.readiness!.flush()
      await sb.sandbox.store.pendingCommit()
      expect(stored()).toContain('loja-exemplo')
    } finally {
      await sb.close()
    }
  })
})
