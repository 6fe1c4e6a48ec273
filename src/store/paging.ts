// Cursor pagination shared by every list of the control plane: newest first, the cursor is an
// opaque token for the last row's sequence number.
import type { Db } from './db.js'
import type { Table } from './tables.js'

export interface ListFilter<S extends string = string> {
  companyId?: string
  status?: S
  limit: number
  cursor?: string
}

export interface Page<T> {
  data: T[]
  nextCursor: string | null
}

export const encodeCursor = (seq: number) => Buffer.from(`s${seq}`).toString('base64url')

/** Returns the sequence number inside a cursor, or null when the cursor is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const m = /^s(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString())
  return m ? Number(m[1]) : null
}

/** A page from `limit + 1` rows fetched in order: the extra row only tells that more follow. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  seqOf: (row: R) => number,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > limit
  const page = more ? rows.slice(0, limit) : rows
  return {
    data: page.map(map),
    nextCursor: more ? encodeCursor(seqOf(page[page.length - 1]!)) : null,
  }
}

const statements = new WeakMap<Db, Map<string, ReturnType<Db['prepare']>>>()

export function listQuery<Row extends { seq: number; company_id: string | null }, T>(
  db: Db,
  table: Table<Row>,
  f: ListFilter,
  map: (row: Row) => T,
): Page<T> {
  const where: string[] = []
  const args: Record<string, unknown> = { limit: f.limit + 1 }
  if (f.companyId !== undefined)
    where.push('company_id = @companyId'), (args.companyId = f.companyId)
  if (f.status !== undefined) where.push('status = @status'), (args.status = f.status)
  if (f.cursor !== undefined)
    where.push('seq < @before'), (args.before = decodeCursor(f.cursor) ?? 0)
  const sql = `SELECT ${table.select()} FROM ${table.name} ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq DESC LIMIT @limit`
  let cache = statements.get(db)
  if (!cache) statements.set(db, (cache = new Map()))
  let stmt = cache.get(sql)
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)))
  return pageOf(stmt.all(args) as Row[], f.limit, (r) => r.seq, map)
}
