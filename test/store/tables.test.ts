// One list of columns per table (store/tables.ts) and numbered migrations: each list is the table
// the migrations build, column for column, and the migrations are numbered 1, 2, 3... with the
// version and name of their file.
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { migrations } from '../../src/store/migrations/index.js'
import { TABLES } from '../../src/store/tables.js'

describe('the store\'s column lists', () => {
  const db = openDb(':memory:')
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[]

  it('name every table the migrations create, and no other', () => {
    expect(Object.keys(TABLES).sort()).toEqual(tables)
  })

  it.each(tables)('list the columns of %s exactly as the migrations built them', (name) => {
    const built = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name)
    expect(TABLES[name as keyof typeof TABLES].columns).toEqual(built)
  })
})

describe('migrations', () => {
  const dir = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url))
  const files = readdirSync(dir).filter((f) => /^\d/.test(f)).sort()

  it('are numbered 1, 2, 3... with no gap or repeat', () => {
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1))
  })

  it('each come from the file of their number and name, and every numbered file is listed', () => {
    expect(files).toEqual(migrations.map((m) => `${String(m.version).padStart(3, '0')}-${m.name}.ts`))
  })
})
