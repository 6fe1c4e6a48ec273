// Opens the SQLite database (a file in WAL mode, or :memory:) and brings its schema up to date.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { migrations as allMigrations, type Migration } from './migrations/index.js'
import { insertInto, TABLES } from './tables.js'

export type Db = Database.Database

/** How long a statement waits for a lock held by the checkpointer's connection. */
export const BUSY_TIMEOUT_MS = 5000

// A fresh in-memory store (one per test, in a test suite) starts from a copy of what the
// migrations built for the first one in this process: running them took ~2.3 ms a store, opening
// a copy takes ~0.03 ms.
let freshSchema: Buffer | undefined

export function openDb(path: string, migrations: Migration[] = allMigrations): Db {
  const copyable = path === ':memory:' && migrations === allMigrations
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const db = new Database(copyable && freshSchema ? freshSchema : path)
  if (path !== ':memory:') db.pragma('journal_mode = WAL')
  // NORMAL in WAL mode survives a killed process (only a power loss can drop the last commits).
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  if (copyable && freshSchema) return db
  migrate(db, migrations)
  if (copyable) freshSchema = db.serialize()
  return db
}

/** A URL's text without its `user:password@`; any other text as it is (migration 011). */
function urlWithoutUserinfo(text: unknown): unknown {
  if (typeof text !== 'string' || !URL.canParse(text)) return text
  const url = new URL(text)
  if (url.username === '' && url.password === '') return text
  url.username = ''
  url.password = ''
  return url.href
}

/**
 * The store's schema is newer than this build's: a newer pix-sandbox migrated it. An older build
 * that wrote into it anyway wrote rows the newer one could not find by their ids (issue 43), so
 * it is refused before anything is read or written.
 */
export class StoreTooNew extends Error {
  constructor(
    readonly version: number,
    readonly known: number,
  ) {
    super(
      `its schema is version ${version}, written by a newer pix-sandbox, and this build knows versions up to ${known}`,
    )
  }
}

export function migrate(db: Db, migrations: Migration[]): void {
  db.function('url_without_userinfo', { deterministic: true }, urlWithoutUserinfo)
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`)
  const applied = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  )
  const newest = Math.max(0, ...applied)
  const known = Math.max(0, ...migrations.map((m) => m.version))
  if (newest > known) throw new StoreTooNew(newest, known)
  const record = insertInto(db, TABLES.schema_migrations)
  for (const m of migrations) {
    if (applied.has(m.version)) continue
    db.transaction(() => {
      db.exec(m.sql)
      record.run({ version: m.version, name: m.name, applied_at: new Date().toISOString() })
    })()
  }
}

export function schemaVersion(db: Db): number {
  return (
    (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0
  )
}
