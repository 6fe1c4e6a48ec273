// The request journal: the newest LIMIT requests, kept in memory as a ring. Recording costs a
// request almost nothing (no serialization, no write); redaction happens when the journal is
// read, and what it answers never holds a secret. It lives as long as the process, like
// WireMock's: a restart or a reset starts it empty.
import type { IncomingHttpHeaders } from 'node:http'
import type { Micros } from '../clock.js'
import { createRedactor } from './redact.js'

export const JOURNAL_LIMIT = 10_000
const MAX_BODY = 64 * 1024

export interface JournalRecord {
  at: Micros
  method: string
  path: string
  query: string
  status: number
  durationMs: number
  companyId: string | null
  /** Request headers as received (redacted when read). */
  headers: IncomingHttpHeaders
  requestBody: string | null
  /** What the handler answered (the object it serialized), or null. */
  responseBody: unknown
}

export interface JournalFilter {
  method?: string
  path?: string
  status?: number
}

export interface JournalView extends Omit<JournalRecord, 'headers' | 'requestBody' | 'responseBody'> {
  id: number
  headers: Record<string, string>
  requestBody: string | null
  responseBody: string | null
}

export function createRequestJournal(secrets: string[], limit = JOURNAL_LIMIT) {
  const redact = createRedactor(secrets)
  const ring: (JournalRecord & { id: number })[] = []
  let nextId = 1
  let start = 0 // index of the oldest entry once the ring is full

  const matches = (e: JournalRecord, f: JournalFilter, companyId?: string) =>
    (companyId === undefined || e.companyId === companyId) &&
    (f.method === undefined || e.method === f.method.toUpperCase()) &&
    (f.path === undefined || e.path === f.path) &&
    (f.status === undefined || e.status === f.status)

  function* newestFirst() {
    for (let i = ring.length - 1; i >= 0; i--) yield ring[(start + i) % ring.length]!
  }

  return {
    record(e: JournalRecord): void {
      if (e.requestBody && e.requestBody.length > MAX_BODY) e.requestBody = `${e.requestBody.slice(0, MAX_BODY)}...`
      const entry = Object.assign(e, { id: nextId++ })
      if (ring.length < limit) ring.push(entry)
      else {
        ring[start] = entry
        start = (start + 1) % limit
      }
    },
    /** Newest first; `before` is an id to continue from. */
    list(f: JournalFilter, take: number, companyId?: string, before?: number): JournalView[] {
      const out: JournalView[] = []
      for (const e of newestFirst()) {
        if (out.length >= take) break
        if ((before !== undefined && e.id >= before) || !matches(e, f, companyId)) continue
        out.push({ ...e, headers: redact.headers(e.headers), requestBody: redact.body(e.requestBody), responseBody: redact.body(e.responseBody) })
      }
      return out
    },
    count(f: JournalFilter, companyId?: string): number {
      let n = 0
      for (const e of ring) if (matches(e, f, companyId)) n++
      return n
    },
    clear(companyId?: string): void {
      const keep = companyId === undefined ? [] : [...newestFirst()].reverse().filter((e) => e.companyId !== companyId)
      ring.length = 0
      ring.push(...keep)
      start = 0
    },
  }
}

export type RequestJournal = ReturnType<typeof createRequestJournal>
