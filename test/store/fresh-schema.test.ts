// A fresh in-memory store opens from a copy of the schema the migrations built for the first one
// in the process (store/db.ts): each copy is the schema the migrations build, and a store of its
// own, whatever the others hold.
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { migrations } from '../../src/store/migrations/index.js'

const schemaOf = (db: ReturnType<typeof openDb>) =>
  db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all()

describe('a fresh in-memory store', () => {
  it('has the schema the migrations build, copy after copy', () => {
    const migrated = openDb(':memory:', [...migrations]) // a list of its own: migrated, not copied
    const first = openDb(':memory:')
    const second = openDb(':memory:')
    expect(schemaOf(first)).toEqual(schemaOf(migrated))
    expect(schemaOf(second)).toEqual(schemaOf(migrated))
    expect(second.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(
      migrations.at(-1)!.version,
    )
    expect(second.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('is a store of its own: what another copy writes is not in it', () => {
    const a = openDb(':memory:')
    a.exec("INSERT INTO companies VALUES ('co', 'Co', 'Recife', 1, 1, 1)")
    const b = openDb(':memory:')
    expect(b.prepare('SELECT count(*) FROM companies').pluck().get()).toBe(0)
    b.exec("INSERT INTO companies VALUES ('other', 'Other', 'Natal', 1, 1, 1)")
    expect(a.prepare('SELECT id FROM companies').pluck().all()).toEqual(['co'])
    // Foreign keys hold in a copy as in a migrated store.
    expect(() => b.exec("INSERT INTO users VALUES ('u', 'missing', 'U', '[]', 0, 1)")).toThrow(
      /FOREIGN KEY/,
    )
  })
})
