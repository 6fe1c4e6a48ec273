// Charge records. The store persists what the domain decided; it never decides a transition.
import type { Micros } from '../clock.js'
import type { CancelReason, Charge, ChargeStatus, Payer } from '../domain/types.js'
import { codeInLocationId, codeInTxid } from '../ids.js'
import { companyCounts } from './company-counts.js'
import type { Db } from './db.js'
import { keyedRows } from './keyed-rows.js'
import { listQuery, type ListFilter, type Page } from './paging.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

const CHARGES = TABLES.charges
type ChargeRow = RowOf<typeof CHARGES>

const toCharge = (r: ChargeRow): Charge => ({
  id: r.id,
  companyId: r.company_id,
  userId: r.user_id,
  amount: r.amount,
  description: r.description,
  status: r.status as ChargeStatus,
  qrCode: r.qr_code,
  qrCodeName: r.qr_code_name,
  locationId: r.location_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  autoPayAt: r.auto_pay_at,
  autoCancelAt: r.auto_cancel_at,
  paidAt: r.paid_at,
  cancelledAt: r.cancelled_at,
  cancelReason: r.cancel_reason as CancelReason | null,
  endToEndId: r.end_to_end_id,
  payer: r.payer === null ? null : JSON.parse(r.payer),
  revision: r.revision,
})

/** What a new charge is told: pending, so with no payment, cancellation or revision yet. */
export type NewCharge = Omit<
  Charge,
  'status' | 'paidAt' | 'cancelledAt' | 'cancelReason' | 'endToEndId' | 'payer' | 'revision'
>

/**
 * The row a new charge becomes; `reusedCode`: it carries a client's code rather than one with its
 * own location. What a pending charge has not got yet is left to the columns' defaults (NULL, 0),
 * which also keeps the hot path's INSERT at the columns it needs.
 */
const toRow = (
  c: NewCharge,
  seq: number,
  reusedCode: boolean,
): InsertRow<typeof CHARGES, NewChargeDefaults> => ({
  seq,
  id: c.id,
  company_id: c.companyId,
  user_id: c.userId,
  amount: c.amount,
  description: c.description,
  status: 'pending',
  qr_code: c.qrCode,
  qr_code_name: c.qrCodeName,
  location_id: c.locationId,
  created_at: c.createdAt,
  expires_at: c.expiresAt,
  auto_pay_at: c.autoPayAt,
  auto_cancel_at: c.autoCancelAt,
  due_at: dueAt(c),
  reused_code: reusedCode ? 1 : 0,
})
const NEW_CHARGE_DEFAULTS = [
  'paid_at',
  'cancelled_at',
  'cancel_reason',
  'end_to_end_id',
  'payer',
  'revision',
  'legacy_ids',
] as const
type NewChargeDefaults = (typeof NEW_CHARGE_DEFAULTS)[number]

/** The earliest instant something may happen on its own to a pending charge. */
export const dueAt = (c: Pick<Charge, 'expiresAt' | 'autoPayAt' | 'autoCancelAt'>): Micros =>
  Math.min(c.expiresAt, c.autoPayAt ?? Infinity, c.autoCancelAt ?? Infinity)

/** `seed`: SEED, for a new store's secret of the codes its ids carry (keyed-rows.ts). */
export function chargeStore(db: Db, seed?: string) {
  const insertStmt = insertInto(db, CHARGES, { defaults: NEW_CHARGE_DEFAULTS })
  // A charge is found by the seq its ids carry (ids.ts).
  const keyed = keyedRows(db, CHARGES, { id: codeInTxid, location_id: codeInLocationId }, seed)
  const rowById = keyed.by('id')
  const rowByLocation = keyed.by('location_id')
  const perCompany = companyCounts(db, 'charges')
  const byEndToEndStmt = db.prepare<[string, string], ChargeRow>(
    `SELECT ${CHARGES.select()} FROM charges WHERE company_id = ? AND end_to_end_id = ?`,
  )
  // The bare `id` beside max(seq) is the id of the row holding that max (SQLite guarantees it).
  const byCodeStmt = db
    .prepare(`
      SELECT id, max(seq) AS newest FROM charges
      WHERE qr_code = ? AND status = 'pending' AND reused_code = 1
      GROUP BY company_id ORDER BY newest DESC LIMIT ?`)
    .pluck()
  // One company's: a seek on (code, company), whatever other companies hold (migration 010).
  const byCodeOfCompanyStmt = db
    .prepare(`
      SELECT id FROM charges
      WHERE qr_code = ? AND company_id = ? AND status = 'pending' AND reused_code = 1
      ORDER BY seq DESC LIMIT 1`)
    .pluck()
  const paidStmt = db.prepare(`
    UPDATE charges SET status = 'paid', paid_at = @at, end_to_end_id = @endToEndId, payer = @payer,
      revision = revision + 1 WHERE seq = @seq AND status = 'pending'`)
  const cancelledStmt = db.prepare(`
    UPDATE charges SET status = 'cancelled', cancelled_at = @at, cancel_reason = @reason,
      revision = revision + 1 WHERE seq = @seq AND status = 'pending'`)
  const seqOf = (id: string): number => rowById(id)?.seq ?? -1
  const dueStmt = db.prepare<[Micros, number], ChargeRow>(
    `SELECT ${CHARGES.select()} FROM charges WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, seq LIMIT ?`,
  )

  return {
    nextSeq: keyed.nextSeq,
    /** The codes of `seq` that a charge's id and location id carry. */
    codes: (seq: number) => ({
      id: keyed.code('id', seq),
      location: keyed.code('location_id', seq),
    }),
    /** Rows an older build wrote, whose ids do not carry their seq, made findable (keyed-rows.ts). */
    adoptUnkeyed: keyed.adoptUnkeyed,
    checkedAt: keyed.checkedAt,
    /** The number of a company's next charge among its own: what its short name shows. */
    nextNumber: (companyId: string): number => perCompany.count(companyId) + 1,

    /**
     * `seq`: `nextSeq()`, which the charge's ids carry; `reusedCode`: the charge carries a
     * client's code rather than one with its own location.
     */
    insert(c: NewCharge, seq: number, reusedCode: boolean): void {
      keyed.insert(seq, () => insertStmt.run(toRow(c, seq, reusedCode)), 'charge')
      perCompany.added(c.companyId)
    },

    byId(id: string): Charge | undefined {
      const r = rowById(id)
      return r ? toCharge(r) : undefined
    },

    byLocation(locationId: string): Charge | undefined {
      const r = rowByLocation(locationId)
      return r ? toCharge(r) : undefined
    },

    /** End-to-end ids are unique within a company: another company's are none of its business. */
    byEndToEndId(companyId: string, endToEndId: string): Charge | undefined {
      const r = byEndToEndStmt.get(companyId, endToEndId)
      return r ? toCharge(r) : undefined
    },

    /** Ids of the newest pending charge carrying exactly this reused code, one per company (or of one company), newest first. */
    newestPendingByCode(qrCode: string, companyId: string | undefined, limit: number): string[] {
      if (companyId === undefined) return byCodeStmt.all(qrCode, limit) as string[]
      const id = byCodeOfCompanyStmt.get(qrCode, companyId) as string | undefined
      return id === undefined ? [] : [id]
    },

    /** Returns false if the charge was no longer pending (the caller's transaction then aborts). */
    markPaid(id: string, at: Micros, endToEndId: string, payer: Payer | null): boolean {
      return (
        paidStmt.run({ seq: seqOf(id), at, endToEndId, payer: payer && JSON.stringify(payer) })
          .changes === 1
      )
    },

    markCancelled(id: string, at: Micros, reason: CancelReason): boolean {
      return cancelledStmt.run({ seq: seqOf(id), at, reason }).changes === 1
    },

    due(now: Micros, limit: number): Charge[] {
      return dueStmt.all(now, limit).map(toCharge)
    },

    list(filter: ListFilter<ChargeStatus>): Page<Charge> {
      return listQuery(db, CHARGES, filter, toCharge)
    },
  }
}

export type ChargeStore = ReturnType<typeof chargeStore>
