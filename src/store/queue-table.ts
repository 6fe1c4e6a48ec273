// What the tables of queued behaviour (outcomes, faults) share: rows optionally owned by a
// company (none: the admin's global rows, which apply to every company), listed, counted and
// cleared per owner, and a cheap "may this company's call find any?" that lets the hot path skip
// the query when neither it nor the admin has queued anything. Every lookup is by owner
// (migration 008's indexes): a call never reads another company's rows.
import { keepsCache } from './caches.js'
import type { Db } from './db.js'
import { decodeCursor, pageOf, type ListFilter, type Page } from './paging.js'
import type { Table } from './tables.js'

/** Owners whose answer is remembered; beyond it the memory starts over (MAX_COMPANIES is 10,000 by default). */
const KNOWN_LIMIT = 20_000

export function queueTable<Row extends { seq: number; company_id: string | null }, T>(
  { name: table, select }: Table<Row>,
  db: Db,
  toItem: (row: Row) => T,
) {
  const holdsOwnStmt = db
    .prepare(`SELECT EXISTS (SELECT 1 FROM ${table} WHERE company_id = ?)`)
    .pluck()
  const holdsGlobalStmt = db
    .prepare(`SELECT EXISTS (SELECT 1 FROM ${table} WHERE company_id IS NULL)`)
    .pluck()
  const countOwnStmt = db.prepare(`SELECT count(*) FROM ${table} WHERE company_id = ?`).pluck()
  const countGlobalStmt = db
    .prepare(`SELECT count(*) FROM ${table} WHERE company_id IS NULL`)
    .pluck()
  const allStmt = db.prepare<[number, number], Row>(
    `SELECT ${select()} FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?`,
  )
  const ownStmt = db.prepare<[string, number, number], Row>(
    `SELECT ${select()} FROM ${table} WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
  )
  const clearAllStmt = db.prepare(`DELETE FROM ${table}`)
  const clearOwnStmt = db.prepare(`DELETE FROM ${table} WHERE company_id = ?`)
  const countDownStmt = db.prepare(
    `UPDATE ${table} SET remaining = remaining - 1 WHERE seq = ? AND remaining > 1`,
  )
  // A row without a count (a fault that strikes forever) is never used up.
  const dropLastStmt = db
    .prepare(`DELETE FROM ${table} WHERE seq = ? AND remaining IS NOT NULL RETURNING company_id`)
    .pluck()
  // Whether an owner (null: the admin's global rows) holds rows, as last asked: a stale true
  // (rows deleted by a reset or a company's removal) costs only one indexed query per call.
  const known = new Map<string | null, boolean>()
  const holds = (owner: string | null): boolean => {
    let v = known.get(owner)
    if (v === undefined) {
      if (known.size >= KNOWN_LIMIT) known.clear()
      v = (owner === null ? holdsGlobalStmt.get() : holdsOwnStmt.get(owner)) === 1
      known.set(owner, v)
    }
    return v
  }
  const refresh = () => known.clear()
  keepsCache(db, refresh)
  return {
    /** False only when neither the company nor the admin holds rows: its call need not look. */
    queuedFor: (companyId: string): boolean => holds(null) || holds(companyId),
    added: (owner: string | null) => void known.set(owner, true),
    /** Rows an owner holds (null: the admin's global ones). */
    count: (owner: string | null): number =>
      (owner === null ? countGlobalStmt.get() : countOwnStmt.get(owner)) as number,
    /** Forgets what is known of every owner (after a rollback, a reset): asked again on the next call. */
    refresh,
    /** Counts one use of a row down, and drops it when that was its last. */
    use(seq: number): void {
      if (countDownStmt.run(seq).changes > 0) return
      const owner = dropLastStmt.get(seq) as string | null | undefined
      if (owner !== undefined) known.delete(owner)
    },
    /** A page of rows, oldest first; with `companyId`, that company's own rows only. */
    list(f: Omit<ListFilter, 'status'>): Page<T> {
      const after = f.cursor === undefined ? 0 : (decodeCursor(f.cursor) ?? 0)
      const rows =
        f.companyId === undefined
          ? allStmt.all(after, f.limit + 1)
          : ownStmt.all(f.companyId, after, f.limit + 1)
      return pageOf(rows, f.limit, (r) => r.seq, toItem)
    },
    clear(companyId?: string): number {
      const n = (companyId === undefined ? clearAllStmt.run() : clearOwnStmt.run(companyId)).changes
      if (companyId === undefined) known.clear()
      else known.delete(companyId)
      return n
    },
  }
}
