// Queued transfer outcomes: the next matching transfers take them, each use counted down.
import type { Micros } from '../clock.js'
import type { PixType, TransferOutcome } from '../domain/types.js'
import type { Db } from './db.js'
import { queueTable } from './queue-table.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

const OUTCOMES = TABLES.outcomes

export interface QueuedOutcome {
  id: number
  companyId: string | null
  outcome: TransferOutcome
  match: { pix_key?: string; pix_type?: PixType; amount?: number }
  remaining: number
  createdAt: Micros
}

const toQueued = (r: RowOf<typeof OUTCOMES>): QueuedOutcome => {
  const outcome: TransferOutcome = { status: r.status as TransferOutcome['status'] }
  if (r.message !== null) outcome.message = r.message
  if (r.settle_after_seconds !== null) outcome.settle_after_seconds = r.settle_after_seconds
  if (r.final_status !== null)
    outcome.final_status = r.final_status as TransferOutcome['final_status']
  if (r.final_message !== null) outcome.final_message = r.final_message
  const match: QueuedOutcome['match'] = {}
  if (r.match_pix_key !== null) match.pix_key = r.match_pix_key
  if (r.match_pix_type !== null) match.pix_type = r.match_pix_type as PixType
  if (r.match_amount !== null) match.amount = r.match_amount
  return {
    id: r.seq,
    companyId: r.company_id,
    outcome,
    match,
    remaining: r.remaining,
    createdAt: r.created_at,
  }
}

const toRow = ({
  companyId,
  outcome: o,
  match,
  remaining,
  createdAt,
}: Omit<QueuedOutcome, 'id'>): InsertRow<typeof OUTCOMES, 'seq'> => ({
  company_id: companyId,
  status: o.status,
  message: o.message ?? null,
  settle_after_seconds: o.settle_after_seconds ?? null,
  final_status: o.final_status ?? null,
  final_message: o.final_message ?? null,
  match_pix_key: match.pix_key ?? null,
  match_pix_type: match.pix_type ?? null,
  match_amount: match.amount ?? null,
  remaining,
  created_at: createdAt,
})

export function outcomeStore(db: Db) {
  const insertStmt = insertInto(db, OUTCOMES, { defaults: ['seq'] })
  const matches = `(match_pix_key IS NULL OR match_pix_key = @key)
      AND (match_pix_type IS NULL OR match_pix_type = @type)
      AND (match_amount IS NULL OR match_amount = @amount)`
  // The oldest match among the company's own and the admin's global outcomes: each side read in
  // order from outcomes_company, so other companies' rows are never read.
  const nextStmt = db.prepare<
    { companyId: string; key: string; type: PixType; amount: number },
    RowOf<typeof OUTCOMES>
  >(`
    SELECT * FROM (SELECT ${OUTCOMES.select()} FROM outcomes WHERE company_id = @companyId AND ${matches} ORDER BY seq LIMIT 1)
    UNION ALL
    SELECT * FROM (SELECT ${OUTCOMES.select()} FROM outcomes WHERE company_id IS NULL AND ${matches} ORDER BY seq LIMIT 1)
    ORDER BY seq LIMIT 1`)
  const queue = queueTable(OUTCOMES, db, toQueued)

  return {
    add(q: Omit<QueuedOutcome, 'id'>): number {
      queue.added(q.companyId)
      return Number(insertStmt.run(toRow(q)).lastInsertRowid)
    },
    /** The oldest outcome queued for this transfer, if any (a cheap no-op when none is queued). */
    next(
      companyId: string,
      t: { pixKey: string; pixType: PixType; amount: number },
    ): QueuedOutcome | undefined {
      if (!queue.queuedFor(companyId)) return undefined
      const r = nextStmt.get({ companyId, key: t.pixKey, type: t.pixType, amount: t.amount })
      return r ? toQueued(r) : undefined
    },
    use: queue.use,
    count: queue.count,
    list: queue.list,
    clear: queue.clear,
    refresh: queue.refresh,
  }
}

export type OutcomeStore = ReturnType<typeof outcomeStore>
