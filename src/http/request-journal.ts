// The request journal: the newest LIMIT requests, kept in memory (see text-ring.ts for why as
// bytes rather than objects). Recording costs a request one buffer write; redaction happens
// when the journal is read, and what it answers never holds a secret. It lives as long as the
// process, like WireMock's: a restart or a reset starts it empty.
import type { Micros } from '../clock.js'
import { createRedactor } from './redact.js'
import { createTextRing } from './text-ring.js'

export const JOURNAL_LIMIT = 10_000
/** Text kept for all entries together; at a few hundred bytes a request, LIMIT is reached first. */
export const JOURNAL_BYTES = 8 * 1024 * 1024
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
) {
  const redact = createRedactor(secrets)
  const ring = createTextRing(limit, bytes, FIELDS)
  const ids = new Float64Array(limit)
  const ats = new Float64Array(limit)
  const durations = new Float64Array(limit)
  const statuses = new Uint16Array(limit)
  const droppedAt = new Uint8Array(limit)
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
  // without one took ~5 ms decoding text it never looked at.
  function matches(slot: number, f: JournalFilter, companyId?: string): boolean {
    if (f.status !== undefined && statuses[slot] !== f.status) return false
    if (f.method === undefined && f.path === undefined && companyId === undefined) return true
    const text = ring.fields(slot)
    return (
      (f.method === undefined || text[F.method] === f.method.toUpperCase()) &&
      (f.path === undefined || text[F.path] === f.path) &&
      (companyId === undefined || text[F.companyId] === companyId)
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
      const slot = ring.push(fields)
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
      for (const slot of ring.newestFirst()) {
        if (more === 0) break
        if (more > 0) more--
        if (before !== undefined && ids[slot]! >= before) continue
        if (matches(slot, f, companyId) && found.push(slot) === take && more < 0) more = maxLag
      }
      found.sort((a, b) => ids[b]! - ids[a]!)
      return found.slice(0, take).map((slot) => view(slot, ring.fields(slot)))
    },
    count(f: JournalFilter, companyId?: string): number {
      let n = 0
      for (const slot of ring.newestFirst()) if (matches(slot, f, companyId)) n++
      return n
    },
    clear(companyId?: string): void {
      if (companyId === undefined) {
        maxLag = 0
        return ring.clear()
      }
      for (const slot of ring.newestFirst())
        if (ring.fields(slot)[F.companyId] === companyId) ring.drop(slot)
    },
  }
}

export type RequestJournal = ReturnType<typeof createRequestJournal>
