// How many rows of a table each company holds, kept in memory as rows are added: a charge's
// short name numbers it among its company's charges (`<merchant> #<n>`), not among every
// company's, which told each tenant how many charges the others made (issue 43). Counted once
// per company when first asked; forgotten with a rollback, a wipe or a company's deletion.
import { keepsCache } from './caches.js'
import type { Db } from './db.js'

/** Companies whose counts are kept at once; beyond it the memory starts over. */
const MAX_REMEMBERED = 20_000

export function companyCounts(db: Db, table: string) {
  const countStmt = db.prepare(`SELECT count(*) FROM ${table} WHERE company_id = ?`).pluck()
  const counts = new Map<string, number>()
  keepsCache(db, () => counts.clear())
  const count = (companyId: string): number => {
    let n = counts.get(companyId)
    if (n === undefined) {
      if (counts.size >= MAX_REMEMBERED) counts.clear()
      counts.set(companyId, (n = countStmt.get(companyId) as number))
    }
    return n
  }
  return {
    count,
    /** After a row of `companyId` was written. */
    added(companyId: string): void {
      const n = counts.get(companyId)
      // Unknown: counted now, the new row included.
      if (n === undefined) count(companyId)
      else counts.set(companyId, n + 1)
    },
  }
}
