// The stored part of readiness: one row per owner (a company, or '' for calls that named none),
// its counts and findings as JSON. Written by the recorder from memory, read once at start.
import type { Micros } from '../clock.js'
import type { Db } from './db.js'
import { insertInto, TABLES, type RowOf } from './tables.js'

const READINESS = TABLES.readiness

export function readinessStore(db: Db) {
  const allStmt = db.prepare<[], RowOf<typeof READINESS>>(
    `SELECT ${READINESS.select()} FROM readiness`,
  )
  const putStmt = insertInto(db, READINESS, { onConflict: ['owner'] })
  const removeStmt = db.prepare('DELETE FROM readiness WHERE owner = ?')
  return {
    all: (): RowOf<typeof READINESS>[] => allStmt.all(),
    put(owner: string, since: Micros, data: string): void {
      putStmt.run({ owner, since, data })
    },
    remove(owner: string): void {
      removeStmt.run(owner)
    },
  }
}
