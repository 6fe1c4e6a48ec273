// Rows whose ids carry their own `seq` (ids.ts: charges, transfers): the next row's seq, kept in
// memory, and a row found by such an id with one lookup of the table's key. Rows written before
// migration 013 (`legacy_ids = 1`) carry no seq: the partial indexes that migration left find
// them, and no later row enters those indexes.
import type { Statement } from 'better-sqlite3'
import { keepsCache } from './caches.js'
import type { Db } from './db.js'
import { idTakenOr } from './id-taken.js'
import type { Table } from './tables.js'

export function keyedRows<Row extends { seq: number }>(db: Db, table: Table<Row>) {
  const bySeq = db.prepare<[number], Row>(
    `SELECT ${table.select()} FROM ${table.name} WHERE seq = ?`,
  )
  const maxSeq = db.prepare(`SELECT coalesce(max(seq), 0) FROM ${table.name}`).pluck()
  // The newest row's seq: a query per write showed in profiles. A rollback can leave it ahead,
  // which only skips a number; a wipe or an abandoned group forgets it.
  let lastSeq: number | undefined
  keepsCache(db, () => void (lastSeq = undefined))
  return {
    nextSeq: (): number => (lastSeq ??= maxSeq.get() as number) + 1,

    /**
     * Writes the row at `seq` (`nextSeq()`). A key taken by a row this cache did not see is
     * IdTaken, and the next decision reads the newest again.
     */
    insert(seq: number, write: () => void, what: string): void {
      try {
        write()
      } catch (err) {
        lastSeq = undefined
        throw idTakenOr(err, what)
      }
      lastSeq = seq
    },

    /** A lookup by `column`, whose values carry their row's seq as `seqIn` reads it. */
    by(
      column: keyof Row & string,
      seqIn: (value: string) => number,
    ): (value: string) => Row | undefined {
      const legacy: Statement<[string], Row> = db.prepare(
        `SELECT ${table.select()} FROM ${table.name} WHERE ${column} = ? AND legacy_ids = 1`,
      )
      return (value) => {
        const row = bySeq.get(seqIn(value))
        return row?.[column] === value ? row : legacy.get(value)
      }
    },
  }
}
