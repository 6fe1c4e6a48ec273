// Injected faults: failures or latency for the contract's operations, optionally counted down.
import type { Micros } from '../clock.js'
import type { Db } from './db.js'
import { queueTable } from './queue-table.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

const FAULTS = TABLES.faults

export type FaultOperation = 'charge' | 'transfer' | 'company'

export interface Fault {
  id: number
  companyId: string | null
  operation: FaultOperation
  status: 500 | 501 | 503 | null
  delayMs: number
  /** Uses left; null means until deleted. */
  remaining: number | null
  createdAt: Micros
  /** Seconds a 503 asks its client to wait (Retry-After); null: no header. */
  retryAfter: number | null
  /** Strikes after the operation took effect (`when: "after"`), not before it. */
  after: boolean
  /** Closes the connection without an answer (after the operation took effect). */
  drop: boolean
}

const toFault = (r: RowOf<typeof FAULTS>): Fault => ({
  id: r.seq,
  companyId: r.company_id,
  operation: r.operation as FaultOperation,
  status: r.status as Fault['status'],
  delayMs: r.delay_ms,
  remaining: r.remaining,
  createdAt: r.created_at,
  retryAfter: r.retry_after,
  after: r.after_write === 1,
  drop: r.drop_answer === 1,
})

const toRow = (f: Omit<Fault, 'id'>): InsertRow<typeof FAULTS, 'seq'> => ({
  company_id: f.companyId,
  operation: f.operation,
  status: f.status,
  delay_ms: f.delayMs,
  remaining: f.remaining,
  created_at: f.createdAt,
  retry_after: f.retryAfter,
  after_write: f.after ? 1 : 0,
  drop_answer: f.drop ? 1 : 0,
})

export function faultStore(db: Db) {
  const insertStmt = insertInto(db, FAULTS, { defaults: ['seq'] })
  // The oldest of the company's own and the admin's global faults for the operation: two seeks
  // in faults_company, whatever other companies hold.
  const nextStmt = db.prepare<
    { operation: FaultOperation; companyId: string },
    RowOf<typeof FAULTS>
  >(`
    SELECT ${FAULTS.select()} FROM faults WHERE seq = (SELECT min(seq) FROM (
      SELECT min(seq) AS seq FROM faults WHERE company_id = @companyId AND operation = @operation
      UNION ALL SELECT min(seq) FROM faults WHERE company_id IS NULL AND operation = @operation))`)
  const queue = queueTable(FAULTS, db, toFault)

  return {
    add(f: Omit<Fault, 'id'>): number {
      queue.added(f.companyId)
      return Number(insertStmt.run(toRow(f)).lastInsertRowid)
    },
    /** Takes the oldest fault for this call and counts it down; undefined (cheaply) when none. */
    take(operation: FaultOperation, companyId: string): Fault | undefined {
      if (!queue.queuedFor(companyId)) return undefined
      const r = nextStmt.get({ operation, companyId })
      if (!r) return undefined
      const fault = toFault(r)
      queue.use(fault.id)
      return fault
    },
    count: queue.count,
    list: queue.list,
    clear: queue.clear,
    refresh: queue.refresh,
  }
}

export type FaultStore = ReturnType<typeof faultStore>
