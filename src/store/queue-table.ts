// What the tables of queued behaviour (outcomes, faults) share: rows optionally owned by a
// company, listed and cleared per company, and a cheap "is anything queued?" flag that lets the
// hot path skip the query when nothing is.
import type { Db } from './db.js'

export function queueTable<T>(db: Db, table: 'outcomes' | 'faults', toItem: (row: any) => T) {
  const countStmt = db.prepare(`SELECT count(*) FROM ${table}`).pluck()
  const allStmt = db.prepare(`SELECT * FROM ${table} ORDER BY seq`)
  const ownStmt = db.prepare(`SELECT * FROM ${table} WHERE company_id = ? ORDER BY seq`)
  const clearAllStmt = db.prepare(`DELETE FROM ${table}`)
  const clearOwnStmt = db.prepare(`DELETE FROM ${table} WHERE company_id = ?`)
  let any = (countStmt.get() as number) > 0
  const refresh = () => void (any = (countStmt.get() as number) > 0)
  return {
    /** False only when the table is surely empty (a stale true costs one query). */
    any: () => any,
    added: () => void (any = true),
    refresh,
    list: (companyId?: string): T[] => (companyId === undefined ? allStmt.all() : ownStmt.all(companyId)).map(toItem),
    clear(companyId?: string): number {
      const n = (companyId === undefined ? clearAllStmt.run() : clearOwnStmt.run(companyId)).changes
      refresh()
      return n
    },
  }
}
