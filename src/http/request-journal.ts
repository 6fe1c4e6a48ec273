// The request journal: the newest requests, kept in memory (see fair-ring.ts for why as bytes
// rather than objects), each company's, the admin's and those of callers without credentials
// (NOBODY) apart: when it is full, whoever holds the most gives way, and callers without
// credentials have a share of their own (fair-ring.ts). Recording costs a request one buffer
// write; redaction happens when the journal is read, and what it answers never holds a secret. It
// lives as long as the process, like WireMock's: a restart or a reset starts it empty.
import type { Micros } from '../clock.js'
import { createFairRing, NOBODY } from './fair-ring.js'
import { createRedactor } from './redact.js'

/** Entries the companies and the admin hold together at most. */
export const JOURNAL_LIMIT = 10_000
/** Text they hold together at most; at a few hundred bytes a request, LIMIT is reached first. */
export const JOURNAL_BYTES = 8 * 1024 * 1024
/** What callers without credentials hold, beside those, as a share no company's entries take. */
export const NOBODY_LIMIT = 1_000
export const NOBODY_BYTES = 1024 * 1024
/** The owner of the admin token's entries (never a company id: those are `co_...` or a scenario's). */
const ADMIN = '\u0000admin'
/** Longer bodies are kept cut, ending in "...". */
export const MAX_BODY = 64 * 1024
/**
 * A longer path, query or header text is kept cut, ending in "...": a head may hold 256 KiB, as
 * uvicorn takes it (src/http/uvicorn/head-size.ts), and the journal keeps what Node's 16 KiB held.
 */
export const MAX_HEAD_TEXT = 16 * 1024
/**
 * Bodies nested deeper are kept cut before the first bracket too deep, ending in "...": a reader
 * then gets text rather than a value too deep to serialize (5,000 nested arrays overflowed the
 * stack of JSON.stringify), and what lies that deep is never kept, secrets included.
 */
export const MAX_DEPTH = 64

/** A request's place in the journal, taken as it arrives: `id` orders the journal. */
export interface Arrival {
  id: number
  /** How many requests had been recorded when it arrived. */
  seen: number
}

export interface JournalRecord {
  /** Where it arrived (`arrive`); without one, it is taken to arrive as it is recorded. */
  arrival?: Arrival
  at: Micros
  method: string
  path: string
  query: string
  status: number
  durationMs: number
  companyId: string | null
  /** Request headers as received: name, value, name, value... (redacted when read). */
  rawHeaders: readonly string[]
  requestBody: string | null
  /** The text the handler answered, or null. */
  responseBody: string | null
  /** The connection was closed instead of answering (a `drop` fault): status and body are what it would have answered. */
  dropped?: boolean
  /** The admin token made it (`companyId` is then null, as for callers without credentials). */
  admin?: boolean
}

export interface JournalFilter {
  method?: string
  path?: string
  status?: number
}

export interface JournalView extends Omit<JournalRecord, 'rawHeaders' | 'dropped'> {
  id: number
  dropped: boolean
  headers: Record<string, string>
}

const F = {
  method: 0,
  path: 1,
  query: 2,
  companyId: 3,
  headers: 4,
  requestBody: 5,
  responseBody: 6,
} as const
const FIELDS = 7

/** Where the first bracket that opens level MAX_DEPTH + 1 lies, outside JSON strings; -1 if none. */
export function tooDeepAt(text: string): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return i
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return -1
}

/**
 * Whether `text` holds at most MAX_DEPTH opening brackets, and so cannot nest deeper: found with
 * indexOf, which is native, where tooDeepAt walks every character in JavaScript (most bodies, a
 * charge's answer among them, hold one or two).
 */
function fewBrackets(text: string): boolean {
  let n = 0
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1))
    if (++n > MAX_DEPTH) return false
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1))
    if (++n > MAX_DEPTH) return false
  return true
}

/** What the journal keeps of a body: at most MAX_BODY characters and MAX_DEPTH levels. */
export function keptBody(body: string | null): string | null {
  if (body === null) return null
  const text = body.length > MAX_BODY ? body.slice(0, MAX_BODY) : body
  const deep = fewBrackets(text) ? -1 : tooDeepAt(text)
  if (deep >= 0) return `${text.slice(0, deep)}...`
  return text.length < body.length ? `${text}...` : body
}

const cut = (text: string) =>
  text.length > MAX_HEAD_TEXT ? `${text.slice(0, MAX_HEAD_TEXT)}...` : text

/** Header pairs as one text; Node's parser refuses line feeds in names and values. */
const joinHeaders = (raw: readonly string[]) => cut(raw.join('\n'))
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const parts = text === '' ? [] : text.split('\n')
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const name = parts[i]!.toLowerCase()
    out[name] = out[name] === undefined ? parts[i + 1]! : `${out[name]}, ${parts[i + 1]}`
  }
  return out
}

export function createRequestJournal(
  secrets: string[],
  limit = JOURNAL_LIMIT,
  bytes = JOURNAL_BYTES,
  nobody = { limit: NOBODY_LIMIT, bytes: NOBODY_BYTES },
) {
  const redact = createRedactor(secrets)
  const ring = createFairRing(
    { slots: limit, bytes, reservedSlots: nobody.limit, reservedBytes: nobody.bytes },
    FIELDS,
  )
  const slots = limit + nobody.limit
  const ids = new Float64Array(slots)
  const ats = new Float64Array(slots)
  const durations = new Float64Array(slots)
  const statuses = new Uint16Array(slots)
  const droppedAt = new Uint8Array(slots)
  // The fields of the record being pushed, filled again for each (the ring copies them; the last
  // request's texts stay referenced until the next one).
  const pushed: (string | null)[] = new Array<string | null>(FIELDS).fill(null)
  let nextId = 1
  let recorded = 0
  // Requests are recorded as they are answered, and listed by arrival: a slow one is recorded
  // after others that arrived later. How many records at most came between a request's arrival
  // and its own record bounds how far below its place in the ring a later arrival can lie.
  let maxLag = 0

  // The text of a record is decoded only when a filter needs it: a count of a full journal
  // without one took ~5 ms decoding text it never looked at. A company's own entries are listed
  // from its own records (fair-ring.ts), never by reading others'.
  function matches(slot: number, f: JournalFilter): boolean {
    if (f.status !== undefined && statuses[slot] !== f.status) return false
    if (f.method === undefined && f.path === undefined) return true
    const text = ring.fields(slot)
    return (
      (f.method === undefined || text[F.method] === f.method.toUpperCase()) &&
      (f.path === undefined || text[F.path] === f.path)
    )
  }

  const view = (slot: number, text: (string | null)[]): JournalView => ({
    id: ids[slot]!,
    at: ats[slot]!,
    method: text[F.method]!,
    path: text[F.path]!,
    query: redact.query(text[F.query]!),
    status: statuses[slot]!,
    dropped: droppedAt[slot] === 1,
    durationMs: durations[slot]!,
    companyId: text[F.companyId]!,
    headers: redact.headers(headersOf(text[F.headers]!)),
    requestBody: redact.body(text[F.requestBody]!),
    responseBody: redact.body(text[F.responseBody]!),
  })

  return {
    /** Numbers a request as it arrives, into `span`. */
    arrive(span: Arrival): void {
      span.id = nextId++
      span.seen = recorded
    },
    record(e: JournalRecord): void {
      const fields = pushed
      fields[F.method] = e.method
      fields[F.path] = cut(e.path)
      fields[F.query] = cut(e.query)
      fields[F.companyId] = e.companyId
      fields[F.headers] = joinHeaders(e.rawHeaders)
      fields[F.requestBody] = keptBody(e.requestBody)
      fields[F.responseBody] = keptBody(e.responseBody)
      const slot = ring.push(e.companyId ?? (e.admin ? ADMIN : NOBODY), fields)
      ids[slot] = e.arrival?.id ?? nextId++
      if (e.arrival) maxLag = Math.max(maxLag, recorded - e.arrival.seen)
      recorded++
      ats[slot] = e.at
      durations[slot] = e.durationMs
      statuses[slot] = e.status
      droppedAt[slot] = e.dropped ? 1 : 0
    },
    /** Newest arrival first; `before` is an id to continue from. */
    list(f: JournalFilter, take: number, companyId?: string, before?: number): JournalView[] {
      const found: number[] = []
      // Once `take` are found, the records of at most maxLag more slots may have arrived later.
      let more = -1
      for (const slot of ring.newestFirst(companyId)) {
        if (more === 0) break
        if (more > 0) more--
        if (before !== undefined && ids[slot]! >= before) continue
        if (matches(slot, f) && found.push(slot) === take && more < 0) more = maxLag
      }
      found.sort((a, b) => ids[b]! - ids[a]!)
      return found.slice(0, take).map((slot) => view(slot, ring.fields(slot)))
    },
    count(f: JournalFilter, companyId?: string): number {
      let n = 0
      for (const slot of ring.newestFirst(companyId)) if (matches(slot, f)) n++
      return n
    },
    clear(companyId?: string): void {
      if (companyId === undefined) maxLag = 0
      ring.clear(companyId)
    },
  }
}

export type RequestJournal = ReturnType<typeof createRequestJournal>
