// The append-only event log: written in the same transaction as the state change it records.
import type { SandboxEvent } from '../domain/types.js'
import type { Db } from './db.js'
import { insertInto, TABLES, type RowOf } from './tables.js'

const EVENTS = TABLES.events

export interface EventQuery {
  companyId?: string
  type?: string
  afterSeq?: number
  limit: number
}

/** How many of a company's latest events `about` searches. */
export const ABOUT_WINDOW = 20_000

export function eventStore(db: Db) {
  const insertStmt = insertInto(db, EVENTS, { defaults: ['seq'] })
  const toEvent = (r: RowOf<typeof EVENTS>): SandboxEvent & { seq: number } => ({
    seq: r.seq,
    id: r.id,
    type: r.type,
    at: r.at,
    companyId: r.company_id,
    data: JSON.parse(r.data),
  })
  const lastSeqStmt = db.prepare('SELECT coalesce(max(seq), 0) FROM events').pluck()
  // No index on the ids inside `data` (it would cost every write): the search reads the
  // company's latest ABOUT_WINDOW events only, through the (company_id, seq) index.
  const aboutStmt = db.prepare<{ company: string; id: string; limit: number; window: number }, RowOf<typeof EVENTS>>(`
    SELECT ${EVENTS.select()} FROM events WHERE company_id = @company
      AND seq > coalesce((SELECT seq FROM events WHERE company_id = @company ORDER BY seq DESC LIMIT 1 OFFSET @window), 0)
      AND (json_extract(data, '$.transaction_id') = @id OR json_extract(data, '$.reference') = @id)
    ORDER BY seq LIMIT @limit`)
  return {
    lastSeq: () => lastSeqStmt.get() as number,
    append(e: SandboxEvent): void {
      insertStmt.run({ id: e.id, type: e.type, at: e.at, company_id: e.companyId, data: JSON.stringify(e.data) })
    },
    /** A company's recent events about one charge or transfer (by transaction_id or ledger reference), oldest first. */
    about(companyId: string, transactionId: string, limit = 100): (SandboxEvent & { seq: number })[] {
      return aboutStmt.all({ company: companyId, id: transactionId, limit, window: ABOUT_WINDOW }).map(toEvent)
    },
    list(q: EventQuery): (SandboxEvent & { seq: number })[] {
      const where: string[] = []
      const args: unknown[] = []
      if (q.companyId !== undefined) where.push('company_id = ?'), args.push(q.companyId)
      if (q.type !== undefined) where.push('type = ?'), args.push(q.type)
      if (q.afterSeq !== undefined) where.push('seq > ?'), args.push(q.afterSeq)
      const sql = `SELECT ${EVENTS.select()} FROM events ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq LIMIT ?`
      return (db.prepare(sql).all(...args, q.limit) as RowOf<typeof EVENTS>[]).map(toEvent)
    },
  }
}

export type EventStore = ReturnType<typeof eventStore>
