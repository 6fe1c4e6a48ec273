// The append-only event log: written in the same transaction as the state change it records.
import type { SandboxEvent } from '../domain/types.js'
import type { Db } from './db.js'
import { insertAllInto, insertInto, TABLES, type RowOf } from './tables.js'

const EVENTS = TABLES.events

export interface EventQuery {
  companyId?: string
  type?: string
  /**
   * Only events about this charge or transfer (a `transaction_id`, or a ledger entry's
   * `reference`), among the company's latest ABOUT_WINDOW events: needs `companyId`.
   */
  about?: string
  /** Newest first, from before `beforeSeq`; otherwise oldest first, from after `afterSeq`. */
  newestFirst?: boolean
  afterSeq?: number
  beforeSeq?: number
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
  const insertAllStmt = insertAllInto(db, EVENTS, { defaults: ['seq'] })
  // An emitted event's data is never changed; a use case that emits two events of one record
  // (a transfer's `transfer.created` and its status) passes the same object: written once.
  let lastData: unknown
  let lastText = ''
  const rowOf = (e: SandboxEvent) => {
    if (e.data !== lastData) {
      lastData = e.data
      lastText = JSON.stringify(e.data)
    }
    return { id: e.id, type: e.type, at: e.at, company_id: e.companyId, data: lastText }
  }
  const lastSeqStmt = db.prepare('SELECT coalesce(max(seq), 0) FROM events').pluck()
  return {
    lastSeq: () => lastSeqStmt.get() as number,
    append(e: SandboxEvent): void {
      insertStmt.run(rowOf(e))
    },
    /** Events a use case writes together, in order, in one statement. */
    appendAll(events: readonly SandboxEvent[]): void {
      if (events.length === 1) insertStmt.run(rowOf(events[0]!))
      else insertAllStmt.run(events.map(rowOf))
    },
    list(q: EventQuery): (SandboxEvent & { seq: number })[] {
      const where: string[] = []
      const args: unknown[] = []
      if (q.companyId !== undefined) where.push('company_id = ?'), args.push(q.companyId)
      if (q.type !== undefined) where.push('type = ?'), args.push(q.type)
      if (q.about !== undefined) {
        if (q.companyId === undefined)
          throw new Error('events about a record are searched within its company')
        // No index on the ids inside `data` (it would cost every write): the search reads the
        // company's latest ABOUT_WINDOW events only, through the (company_id, seq) index.
        where.push(
          'seq > coalesce((SELECT seq FROM events WHERE company_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?), 0)',
        )
        where.push(
          "(json_extract(data, '$.transaction_id') = ? OR json_extract(data, '$.reference') = ?)",
        )
        args.push(q.companyId, ABOUT_WINDOW, q.about, q.about)
      }
      if (q.afterSeq !== undefined) where.push('seq > ?'), args.push(q.afterSeq)
      if (q.beforeSeq !== undefined) where.push('seq < ?'), args.push(q.beforeSeq)
      const sql = `SELECT ${EVENTS.select()} FROM events ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY seq ${q.newestFirst ? 'DESC' : ''} LIMIT ?`
      return (db.prepare(sql).all(...args, q.limit) as RowOf<typeof EVENTS>[]).map(toEvent)
    },
  }
}

export type EventStore = ReturnType<typeof eventStore>
