// Transfer records. Settlement writes only what the domain decided.
import type { Micros } from '../clock.js'
import type { PixType, SettledStatus, Transfer, TransferStatus } from '../domain/types.js'
import { codeInEndToEndId } from '../ids.js'
import type { Db } from './db.js'
import { keyedRows } from './keyed-rows.js'
import { listQuery, type ListFilter, type Page } from './paging.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

const TRANSFERS = TABLES.transfers
type TransferRow = RowOf<typeof TRANSFERS>

const toTransfer = (r: TransferRow): Transfer => ({
  id: r.id,
  companyId: r.company_id,
  userId: r.user_id,
  amount: r.amount,
  description: r.description,
  pixKey: r.pix_key,
  pixType: r.pix_type as PixType,
  status: r.status as TransferStatus,
  message: r.message,
  createdAt: r.created_at,
  settleAt: r.settle_at,
  finalStatus: r.final_status as Transfer['finalStatus'],
  finalMessage: r.final_message,
  settledAt: r.settled_at,
})

/** What a new transfer is told: it has not settled yet (settled_at is left NULL). */
export type NewTransfer = Omit<Transfer, 'settledAt'>

const toRow = (
  t: NewTransfer,
  seq: number,
): InsertRow<typeof TRANSFERS, 'settled_at' | 'legacy_ids'> => ({
  seq,
  id: t.id,
  company_id: t.companyId,
  user_id: t.userId,
  amount: t.amount,
  description: t.description,
  pix_key: t.pixKey,
  pix_type: t.pixType,
  status: t.status,
  message: t.message,
  created_at: t.createdAt,
  settle_at: t.settleAt,
  final_status: t.finalStatus,
  final_message: t.finalMessage,
})

/** `seed`: SEED, for a new store's secret of the codes its ids carry (keyed-rows.ts). */
export function transferStore(db: Db, seed?: string) {
  const insertStmt = insertInto(db, TRANSFERS, { defaults: ['settled_at', 'legacy_ids'] })
  // A transfer is found by the seq its id carries (ids.ts).
  const keyed = keyedRows(db, TRANSFERS, { id: codeInEndToEndId }, seed)
  const rowById = keyed.by('id')
  const settleStmt = db.prepare(`
    UPDATE transfers SET status = @status, message = @message, settled_at = @at
    WHERE seq = @seq AND status = 'pending'`)
  const dueStmt = db.prepare<[Micros, number], TransferRow>(
    `SELECT ${TRANSFERS.select()} FROM transfers WHERE status = 'pending' AND settle_at <= ? ORDER BY settle_at, seq LIMIT ?`,
  )

  return {
    nextSeq: keyed.nextSeq,
    /** The code of `seq` that a transfer's id carries. */
    code: (seq: number) => keyed.code('id', seq),
    /** Rows an older build wrote, whose ids do not carry their seq, made findable (keyed-rows.ts). */
    adoptUnkeyed: keyed.adoptUnkeyed,
    checkedAt: keyed.checkedAt,

    /** `seq`: `nextSeq()`, which the transfer's id carries. */
    insert(t: NewTransfer, seq: number): void {
      keyed.insert(seq, () => insertStmt.run(toRow(t, seq)), 'transfer')
    },

    byId(id: string): Transfer | undefined {
      const r = rowById(id)
      return r ? toTransfer(r) : undefined
    },

    /** Returns false if the transfer was no longer pending. */
    settle(id: string, status: SettledStatus, message: string, at: Micros): boolean {
      const seq = rowById(id)?.seq ?? -1
      return settleStmt.run({ seq, status, message, at }).changes === 1
    },

    due(now: Micros, limit: number): Transfer[] {
      return dueStmt.all(now, limit).map(toTransfer)
    },

    list(filter: ListFilter<TransferStatus>): Page<Transfer> {
      return listQuery(db, TRANSFERS, filter, toTransfer)
    },
  }
}

export type TransferStore = ReturnType<typeof transferStore>
