// What the tables of queued behaviour (outcomes, faults) share: rows optionally owned by a
// company, listed and cleared per company, and a cheap "is anything queued?" flag that lets the
// hot path skip the query when nothing is.
import { keepsCache } from './caches.js'
import type { Db } from './db.js'
import { decodeCursor, pageOf, type ListFilter, type Page } from './paging.js'
import type { Table } from './tables.js'

export function queueTable<Row extends { seq: number }, T>({ name: table, select }: Table<Row>, db: Db, toItem: (row: Row) => T) {
  const countStmt = db.prepare(`SELECT count(*) FROM ${table}`).pluck()
  const allStmt = db.prepare<[number, number], Row>(`SELECT ${select()} FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?`)
  const ownStmt = db.prepare<[string, number, number], Row>(`SELECT ${select()} FROM ${table} WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?`)
  const clearAllStmt = db.prepare(`DELETE FROM ${table}`)
  const clearOwnStmt = db.prepare(`DELETE FROM ${table} WHERE company_id = ?`)
  const countDownStmt = db.prepare(`UPDATE ${table} SET remaining = remaining - 1 WHERE seq = ? AND remaining > 1`)
  // A row without a count (a fault that strikes forever) is never used up.
  const dropLastStmt = db.prepare(`DELETE FROM ${table} WHERE seq = ? AND remaining IS NOT NULL`)
  let any = (countStmt.get() as number) > 0
  const refresh = () => void (any = (countStmt.get() as number) > 0)
  keepsCache(db, refresh)
  return {
    /** False only when the table is surely empty (a stale true costs one query). */
    any: () => any,
    added: () => void (any = true),
    refresh,
    /** Counts one use of a row down, and drops it when that was its last. */
    use(seq: number): void {
      if (countDownStmt.run(seq).changes === 0 && dropLastStmt.run(seq).changes > 0) refresh()
    },
    /** A page of rows, oldest first; with `companyId`, that company's own rows only. */
    list(f: Omit<ListFilter, 'status'>): Page<T> {
      const after = f.cursor === undefined ? 0 : (decodeCursor(f.cursor) ?? 0)
      const rows = (f.companyId === undefined ? allStmt.all(after, f.limit + 1) : ownStmt.all(f.companyId, after, f.limit + 1))
      return pageOf(rows, f.limit, (r) => r.seq, toItem)
    },
    clear(companyId?: string): number {
      const n = (companyId === undefined ? clearAllStmt.run() : clearOwnStmt.run(companyId)).changes
      refresh()
      return n
    },
  }
}
