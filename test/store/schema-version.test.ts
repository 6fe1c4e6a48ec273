// Rolling back to an older build. A store whose schema a newer build migrated is refused, with a
// message and no stack trace, and left as it was; and rows an older build wrote into a store
// this build migrated (ids that do not carry their key) are found by their ids all the same, and
// what they did not write (a column added since) reads as it does in this build's own records.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox, StartupError } from '../../src/server.js'
import { migrations } from '../../src/store/migrations/index.js'
import { AUTH, request, testConfig } from '../harness.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const TSX = import.meta.resolve('tsx')
const NEWER = migrations.at(-1)!.version + 1

let dir: string
let database: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-schema-'))
  database = join(dir, 'sandbox.db')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Starts and stops a server on `database`: a store of this build's schema. */
async function madeByThisBuild() {
  await (await startSandbox(testConfig({ database }), { log: silentLog })).close()
}

/** Everything in the store, for comparing before and after. */
function contents(): unknown {
  const db = new Database(database, { readonly: true })
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[]
    return tables.map((t) => db.prepare(`SELECT * FROM ${t}`).all())
  } finally {
    db.close()
  }
}

describe('a store migrated by a newer build', () => {
  it('is refused with a message naming the versions, and nothing in it changes', async () => {
    await madeByThisBuild()
    const db = new Database(database)
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(NEWER, 'future', 'later')
    db.close()
    const before = contents()
    const started = startSandbox(testConfig({ database }), { log: silentLog })
    await expect(started).rejects.toBeInstanceOf(StartupError)
    await expect(started).rejects.toThrow(
      `the store ${database} cannot be opened: its schema is version ${NEWER}, written by a newer pix-sandbox, and this build knows versions up to ${NEWER - 1}. Start that version of pix-sandbox (or a newer one) on it, or choose another file; nothing was changed in it`,
    )
    expect(contents()).toEqual(before)

    // The command line says the same and exits 1, without a stack trace.
    const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src/main.ts')], {
      cwd: dir,
      env: {
        ...process.env,
        DATABASE: database,
        PORT: '0',
        SCENARIOS_DIR: join(ROOT, 'scenarios'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    const code = await new Promise((r) => child.once('exit', r))
    expect(code).toBe(1)
    expect(out).toContain(
      `pix-sandbox: the store ${database} cannot be opened: its schema is version ${NEWER}`,
    )
    expect(out).not.toMatch(/\n\s+at /)
    expect(contents()).toEqual(before)
  })
})

describe('rows an older build wrote into a store this build migrated', () => {
  it('are found by their ids: read, paid, settled and their location served', async () => {
    await madeByThisBuild()
    // What an older build does on it: it counts its start, and writes rows as its code did,
    // ids of its own making (no key of this store in them) and the row's seq left to SQLite.
    const db = new Database(database)
    db.exec(`
      UPDATE meta SET value = value + 1 WHERE key = 'starts';
      INSERT INTO charges (id, company_id, user_id, amount, status, qr_code, qr_code_name,
        location_id, created_at, expires_at, due_at)
      SELECT 'OLDBUILDchargeAAAAAAAAAAAAAAAAAA', company_id, id, 1234, 'pending', 'qr', 'Old #1',
        'oldbuildlocationaaaaaaaaa', 1, 9e15, 9e15 FROM users WHERE id = 'loja-exemplo-user';
      INSERT INTO transfers (id, company_id, user_id, amount, pix_key, pix_type, status, message,
        created_at, settle_at)
      SELECT 'E00000000202603011200OLDBUILDxyz', company_id, id, 99, 'a@b.com', 'EMAIL', 'pending',
        'Transfer pending', 1, 9e15 FROM users WHERE id = 'loja-exemplo-user';
    `)
    db.close()
    const sb = await startSandbox(testConfig({ database }), { log: silentLog })
    try {
      const get = (path: string) => request(sb.url, 'GET', path, { auth: AUTH.main })
      const oldCharge = (await get('/_sandbox/charges/OLDBUILDchargeAAAAAAAAAAAAAAAAAA')).body
      expect(oldCharge).toMatchObject({ amount: 1234 })
      expect((await get('/pix/qr/v2/oldbuildlocationaaaaaaaaa')).status).toBe(200)
      const oldTransfer = (await get('/_sandbox/transfers/E00000000202603011200OLDBUILDxyz')).body
      expect(oldTransfer).toMatchObject({ amount: 99 })
      // What the older build did not write (a column added since) reads as this build's own
      // record made without it: absent (null), not a value made up by the column's default.
      const made = async (kind: string, path: string, json: object) => {
        const sent = await request(sb.url, 'POST', `/api/v1/hub/transactions/${path}`, {
          auth: AUTH.main,
          json,
        })
        return (await get(`/_sandbox/${kind}/${sent.body.transaction_id}`)).body
      }
      for (const [old, own] of [
        [oldCharge, await made('charges', 'in', { amount: 5 })],
        [
          oldTransfer,
          // A magic amount of the default scenario (scenarios/default.yaml): left pending and
          // settled later, as the older one is.
          await made('transfers', 'out', { amount: 777, pix_key: 'a@b.com', pix_type: 'EMAIL' }),
        ],
      ])
        for (const [field, value] of Object.entries(own))
          if (value === null) expect(old[field], `${old.transaction_id}: ${field}`).toBeNull()
      const admin = { auth: `Bearer ${sb.adminToken}`, json: {} }
      expect(
        (
          await request(
            sb.url,
            'POST',
            '/_sandbox/charges/OLDBUILDchargeAAAAAAAAAAAAAAAAAA/pay',
            admin,
          )
        ).status,
      ).toBe(200)
      expect(
        (
          await request(
            sb.url,
            'POST',
            '/_sandbox/transfers/E00000000202603011200OLDBUILDxyz/settle',
            {
              ...admin,
              json: { status: 'success' },
            },
          )
        ).status,
      ).toBe(200)
      // This build's own rows are found as before.
      const charge = await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 5 },
      })
      expect((await get(`/_sandbox/charges/${charge.body.transaction_id}`)).status).toBe(200)
    } finally {
      await sb.close()
    }
  })
})
