// The request journal. Entries are queued as thunks and built (redacted, serialized) and written
// in one transaction per event-loop turn, so recording costs a request almost nothing; reads
// flush the queue first. The journal keeps the newest JOURNAL_LIMIT entries.
import type { Micros } from '../clock.js'
import type { Db } from './db.js'

export const JOURNAL_LIMIT = 10_000

export interface JournalEntry {
  at: Micros
  method: string
  path: string
  query: string
  status: number
  durationMs: number
  companyId: string | null
  requestHeaders: Record<string, string>
  requestBody: string | null
  responseBody: string | null
}

export interface JournalFilter {
  method?: string
  path?: string
  status?: number
  limit: number
  before?: number
}

const toEntry = (r: any) => ({
  id: r.seq as number,
  at: r.at as Micros,
  method: r.method as string,
  path: r.path as string,
  query: r.query as string,
  status: r.status as number,
  durationMs: r.duration_ms as number,
  companyId: r.company_id as string | null,
  requestHeaders: JSON.parse(r.request_headers) as Record<string, string>,
  requestBody: r.request_body as string | null,
  responseBody: r.response_body as string | null,
})

export type StoredJournalEntry = ReturnType<typeof toEntry>

function where(f: Omit<JournalFilter, 'limit'>, companyId?: string): { sql: string; args: unknown[] } {
  const parts: string[] = []
  const args: unknown[] = []
  if (companyId !== undefined) parts.push('company_id = ?'), args.push(companyId)
  if (f.method !== undefined) parts.push('method = ?'), args.push(f.method.toUpperCase())
  if (f.path !== undefined) parts.push('path = ?'), args.push(f.path)
  if (f.status !== undefined) parts.push('status = ?'), args.push(f.status)
  if (f.before !== undefined) parts.push('seq < ?'), args.push(f.before)
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', args }
}

export function journalStore(db: Db) {
  const insertStmt = db.prepare(`
    INSERT INTO requests (at, method, path, query, status, duration_ms, company_id, request_headers, request_body, response_body)
    VALUES (@at, @method, @path, @query, @status, @durationMs, @companyId, @headers, @requestBody, @responseBody)`)
  const pruneStmt = db.prepare('DELETE FROM requests WHERE seq <= (SELECT max(seq) FROM requests) - ?')
  let queue: (() => JournalEntry)[] = []
  let scheduled = false
  let sincePrune = 0

  const flush = () => {
    scheduled = false
    if (queue.length === 0 || !db.open) return
    const batch = queue
    queue = []
    db.transaction(() => {
      for (const make of batch) {
        const e = make()
        insertStmt.run({ ...e, headers: JSON.stringify(e.requestHeaders) })
      }
      sincePrune += batch.length
      if (sincePrune >= 500) {
        pruneStmt.run(JOURNAL_LIMIT)
        sincePrune = 0
      }
    })()
  }

  return {
    record(make: () => JournalEntry): void {
      queue.push(make)
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
    list(f: JournalFilter, companyId?: string) {
      flush()
      const w = where(f, companyId)
      return db.prepare(`SELECT * FROM requests ${w.sql} ORDER BY seq DESC LIMIT ?`).all(...w.args, f.limit).map(toEntry)
    },
    count(f: Omit<JournalFilter, 'limit'>, companyId?: string): number {
      flush()
      const w = where(f, companyId)
      return db.prepare(`SELECT count(*) FROM requests ${w.sql}`).pluck().get(...w.args) as number
    },
    clear(companyId?: string): void {
      flush()
      if (companyId === undefined) db.prepare('DELETE FROM requests').run()
      else db.prepare('DELETE FROM requests WHERE company_id = ?').run(companyId)
    },
  }
}

export type JournalStore = ReturnType<typeof journalStore>
