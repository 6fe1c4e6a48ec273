// A restart on the same DATABASE keeps everything, and the scenario loads into an empty store only.
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDb, schemaVersion } from '../../src/store/db.js'
import { openStore } from '../../src/store/index.js'
import { migrations } from '../../src/store/migrations/index.js'
import { eventually } from '../hang.js'
import { AUTH, startTestSandbox } from '../harness.js'

let dir: string
const readlinkOrNull = (path: string) => {
  try {
    return readlinkSync(path)
  } catch {
    return null // closed while listed
  }
}
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('the store', () => {
  // Every connection, the checkpointer's included, is closed when close() resolves: the last one
  // folds the WAL back into the file, so what is left is one file, to copy or delete at once
  // (beside its lock, an empty file that holds nothing and stays: lock.ts).
  // Linux: the process's open files are read from /proc.
  it.skipIf(!existsSync('/proc/self/fd'))(
    'is one file, released by every connection, once close() resolves',
    async () => {
      const file = join(dir, 'sandbox.db')
      const store = openStore(file)
      store.tx(() =>
        store.events.append({ id: 'e1', type: 'test.event', at: 1, companyId: null, data: {} }),
      )
      await store.pendingCommit()
      // Once the checkpointer's connection is open too (two descriptors of the file in this process).
      const opened = () =>
        readdirSync('/proc/self/fd').filter((fd) => readlinkOrNull(`/proc/self/fd/${fd}`) === file)
          .length
      await eventually(() => opened() >= 2, 'the checkpointer never opened the store', 5)
      await store.close()
      expect(readdirSync(dir).sort()).toEqual(['sandbox.db', 'sandbox.db.lock'])
      expect(statSync(join(dir, 'sandbox.db.lock')).size).toBe(0)
    },
  )

  it('keeps charges, transfers and balances across a restart', async () => {
    const database = join(dir, 'nested', 'sandbox.db')
    const first = await startTestSandbox({ database })
    expect(first.scenarioLoaded).toBe('default')
    const charge = (
      await first.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 1234 },
      })
    ).body
    const transfer = (
      await first.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 5000, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      })
    ).body
    await first.close()

    const second = await startTestSandbox({ database })
    expect(second.scenarioLoaded).toBeNull()
    expect(second.sandbox.store.charges.byId(charge.transaction_id)).toMatchObject({
      amount: 1234,
      status: 'pending',
      qrCode: charge.qr_code,
    })
    expect(second.sandbox.store.transfers.byId(transfer.transaction_id)).toMatchObject({
      amount: 5000,
      status: 'success',
    })
    expect(second.sandbox.store.ledger.balance('loja-exemplo-user')).toBe(1_000_000 - 5000)
    // The scenario was not applied again: one opening entry, not two.
    const openings = second.sandbox.store.db
      .prepare(
        "SELECT count(*) FROM ledger_entries WHERE kind = 'opening' AND user_id = 'loja-exemplo-user'",
      )
      .pluck()
      .get()
    expect(openings).toBe(1)
    expect((await second.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(
      200,
    )
    await second.close()
  })

  it('uses WAL for a file store and records applied migrations in a version table', () => {
    const file = join(dir, 'v.db')
    const db = openDb(file)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(schemaVersion(db)).toBe(migrations[migrations.length - 1]!.version)
    db.close()
    // Opening again applies nothing twice.
    const again = openDb(file)
    expect(again.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(
      migrations.length,
    )
    again.close()
  })

  it('applies only the migrations a store does not have yet', () => {
    const file = join(dir, 'm.db')
    openDb(file, migrations.slice(0, 1)).close()
    const extra = { version: 999, name: 'test-extra', sql: 'CREATE TABLE extra (x INTEGER)' }
    const db = openDb(file, [...migrations, extra])
    expect(schemaVersion(db)).toBe(999)
    db.close()
    const raw = new Database(file)
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").pluck().get()).toBe(
      'extra',
    )
    raw.close()
  })

  it('refuses to start on a broken scenario and leaves the new store empty', async () => {
    const database = join(dir, 'broken.db')
    await expect(startTestSandbox({ database, scenario: 'does-not-exist' })).rejects.toThrow(
      /no scenario named "does-not-exist"/,
    )
    const db = new Database(database)
    expect(db.prepare('SELECT count(*) FROM companies').pluck().get()).toBe(0)
    db.close()
  })
})

describe('start-up failures', () => {
  it('says so clearly when the port is taken, and closes the store', async () => {
    const first = await startTestSandbox()
    try {
      await expect(startTestSandbox({ port: first.port, host: '127.0.0.1' })).rejects.toThrow(
        /127\.0\.0\.1:\d+ is already in use: choose another port, or 0 for any free one$/,
      )
    } finally {
      await first.close()
    }
  })
})
