// One list of columns per table (store/tables.ts) and numbered migrations: each list is the table
// the migrations build, column for column, every INSERT is built from it, and the migrations are
// numbered 1, 2, 3... with the version and name of their file.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { CHARGE_STATUSES, TRANSFER_STATUSES } from '../../src/domain/enums.js'
import { WIPE_ORDER } from '../../src/store/index.js'
import { migrations } from '../../src/store/migrations/index.js'
import { insertInto, TABLES } from '../../src/store/tables.js'
import { DELIVERY_STATUSES } from '../../src/store/webhooks.js'

describe("the store's column lists", () => {
  const db = openDb(':memory:')
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all() as string[]

  it('name every table the migrations create, and no other', () => {
    expect(Object.keys(TABLES).sort()).toEqual(tables)
  })

  it.each(tables)('list the columns of %s exactly as the migrations built them', (name) => {
    const built = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map(
      (c) => c.name,
    )
    expect(TABLES[name as keyof typeof TABLES].columns).toEqual(built)
  })
})

describe('the statuses a table accepts', () => {
  const db = openDb(':memory:')
  const checked = (table: string, column: string) => {
    const sql = db
      .prepare('SELECT sql FROM sqlite_schema WHERE name = ?')
      .pluck()
      .get(table) as string
    // `status IN ('a', 'b')`, or `status = 'a' OR status = 'b'` (migration 013: cheaper to check).
    const list = new RegExp(
      `\\b${column} TEXT NOT NULL CHECK \\(${column} IN \\(([^)]*)\\)\\)`,
    ).exec(sql)?.[1]
    if (list) return list.split(',').map((v) => v.trim().replace(/^'|'$/g, ''))
    const ors = new RegExp(
      `\\b${column} TEXT NOT NULL CHECK \\(((?:${column} = '[^']*'(?: OR )?)+)\\)`,
    ).exec(sql)?.[1]
    return ors?.split(' OR ').map((v) => v.slice(`${column} = '`.length, -1))
  }

  it.each([
    ['charges', CHARGE_STATUSES],
    ['transfers', TRANSFER_STATUSES],
    ['outcomes', TRANSFER_STATUSES],
    ['deliveries', DELIVERY_STATUSES],
  ] as const)('are the list the code takes them from, for %s', (table, statuses) => {
    expect(checked(table, 'status')).toEqual([...statuses])
  })
})

describe('the wipe (a reset)', () => {
  const db = openDb(':memory:')
  // meta keeps the signing key, the start count and the server holding the store (its own
  // statement in wipe); the migrations applied stay applied; the ids' keys and the highest seq
  // each keyed table gave stay, so that no id comes back (store/keyed-rows.ts).
  const kept = ['meta', 'schema_migrations', 'id_keys']

  it('empties every table but those it keeps, each once', () => {
    expect([...WIPE_ORDER].sort()).toEqual(
      Object.keys(TABLES)
        .filter((t) => !kept.includes(t))
        .sort(),
    )
  })

  it('empties a table only once every table whose rows point to it is empty', () => {
    for (const [i, table] of WIPE_ORDER.entries()) {
      const parents = (
        db.prepare(`PRAGMA foreign_key_list(${table})`).all() as { table: string }[]
      ).map((fk) => fk.table)
      for (const parent of parents)
        expect(WIPE_ORDER.indexOf(parent as never), `${table} points to ${parent}`).toBeGreaterThan(
          i,
        )
    }
  })
})

describe('an INSERT built from a column list', () => {
  const db = openDb(':memory:')
  const storeDir = fileURLToPath(new URL('../../src/store/', import.meta.url))

  it('writes the row it is given, column for column, and replaces the others on its conflict key', () => {
    const put = insertInto(db, TABLES.pix_keys, { onConflict: ['key'] })
    put.run({ key: 'a@example.com', type: 'EMAIL', active: 1, owner_name: 'Ana' })
    put.run({ key: 'a@example.com', type: 'EMAIL', active: 0, owner_name: null })
    expect(db.prepare('SELECT * FROM pix_keys').all()).toEqual([
      { key: 'a@example.com', type: 'EMAIL', active: 0, owner_name: null },
    ])
  })

  it('leaves the columns it names as defaults to the database', () => {
    const add = insertInto(db, TABLES.rules, { defaults: ['seq'] })
    const { lastInsertRowid } = add.run({ kind: 'charge', definition: '{}' })
    expect(db.prepare('SELECT * FROM rules WHERE seq = ?').get(lastInsertRowid)).toEqual({
      seq: Number(lastInsertRowid),
      kind: 'charge',
      definition: '{}',
    })
  })

  // Checked by the typecheck (npm test's first step): each line below fails to compile as it
  // should, or the directive above it fails for want of an error.
  it('refuses, at compile time, a row missing a column or naming one the table has not got', () => {
    const put = insertInto(db, TABLES.readiness, { onConflict: ['owner'] })
    const halfMade = [
      // @ts-expect-error: `data` is missing (a column added to the table and forgotten in a toRow)
      () => put.run({ owner: 'c1', since: 1 }),
      // @ts-expect-error: `extra` is not a column (a field a toRow writes that the table has not got)
      () => put.run({ owner: 'c1', since: 1, data: '{}', extra: 1 }),
      () =>
        insertInto(db, TABLES.rules, { defaults: ['seq'] }).run({
          // @ts-expect-error: `seq` is left to the database, so it is no part of the row
          seq: 1,
          kind: 'charge',
          definition: '{}',
        }),
      // @ts-expect-error: a default must be one of the table's columns
      () => insertInto(db, TABLES.rules, { defaults: ['sequence'] }),
    ]
    expect(halfMade).toHaveLength(4)
  })

  it('is the only way the store writes a new row', () => {
    const byHand = readdirSync(storeDir)
      .filter((f) => f.endsWith('.ts') && f !== 'tables.ts')
      .filter((f) => /\bINSERT\s+INTO\b/i.test(readFileSync(storeDir + f, 'utf8')))
    expect(byHand).toEqual([])
  })
})

describe('migrations', () => {
  const dir = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url))
  const files = readdirSync(dir)
    .filter((f) => /^\d/.test(f))
    .sort()

  it('are numbered 1, 2, 3... with no gap or repeat', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1))
  })

  it('each come from the file of their number and name, and every numbered file is listed', () => {
    expect(files).toEqual(
      migrations.map((m) => `${String(m.version).padStart(3, '0')}-${m.name}.ts`),
    )
  })
})
