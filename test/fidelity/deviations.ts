// The differences docs/CONTRACT.md#deviations lists, one entry per line of its table (a test
// checks that the two lists are the same): each says when an answer of the sandbox may differ
// from FastAPI's, as narrowly as the cases allow. Anything else that differs fails the
// differential.
import { METHODS } from 'node:http'
import type { Seen } from './compare.js'
import type { Case } from './generator.js'

export type Style = 'fastapi' | 'simple'

export interface Context {
  style: Style
  /** The reference's CPython, [major, minor]. */
  python: [number, number]
}

export interface Deviation {
  /** The first cell of its line in docs/CONTRACT.md's table of deviations. */
  row: string
  applies(c: Case, sandbox: Seen, reference: Seen, ctx: Context): boolean
}

const SANDBOX_PREFIXES = [
  '/_sandbox',
  '/docs',
  '/openapi.json',
  '/pix/qr/',
  '/.well-known/',
  '/favicon.ico',
]
const INVALID_REQUEST = 'Invalid HTTP request received.'
const PLAIN_TEXT = 'text/plain; charset=utf-8'

function detail(s: Seen): unknown {
  try {
    return (JSON.parse(s.body) as { detail?: unknown }).detail
  } catch {
    return undefined
  }
}

/** FastAPI's answer to a 422 it cannot write (its list would echo a lone surrogate). */
const unwritable = (s: Seen) =>
  s.status === 500 && s.body === 'Internal Server Error' && s['content-type'] === PLAIN_TEXT

/** A 422 whose detail names only these fields (either style). */
function refusesOnly(s: Seen, fields: string[]): boolean {
  if (s.status !== 422) return false
  const d = detail(s)
  if (typeof d === 'string') return fields.some((f) => d.startsWith(`${f}:`))
  return (
    Array.isArray(d) &&
    d.length > 0 &&
    d.every((e: { loc?: unknown[] }) => fields.includes(String(e.loc?.[1])))
  )
}

/** uvicorn's 400 for a request it cannot parse (a HEAD's answer has no body). */
const invalidRequest = (c: Case, s: Seen) =>
  s.status === 400 &&
  (s.body === INVALID_REQUEST ||
    (c.bytes.subarray(0, 5).toString() === 'HEAD ' && s['content-type'] === PLAIN_TEXT))

const head = (c: Case) => {
  const end = c.bytes.indexOf('\r\n\r\n')
  return c.bytes.subarray(0, end < 0 ? c.bytes.length : end + 4).toString('latin1')
}

/** What Node's parser (llhttp, strict) refuses in a head that h11 takes. */
function nodeRefuses(c: Case): boolean {
  const text = head(c)
  const [line = '', ...fields] = text.split(/\r?\n/)
  const [method = '', target = '', version = ''] = line.split(' ')
  if (!METHODS.includes(method)) return true
  if (/^HTTP\/\d\.\d$/.test(version) && version !== 'HTTP/1.0' && version !== 'HTTP/1.1')
    return true
  if (!/^(?:\/|\*$|https?:\/\/)/.test(target) && method !== 'CONNECT') return true
  if (/(?<!\r)\n/.test(text)) return true
  const names = fields.filter((f) => f !== '').map((f) => f.slice(0, f.indexOf(':')).toLowerCase())
  if (
    fields.some(
      (f) => /^[ \t]/.test(f) || /[\x01-\x08\x0a-\x1f\x7f]/.test(f.slice(f.indexOf(':') + 1)),
    )
  )
    return true
  const lengths = fields.filter((f) => /^content-length:/i.test(f))
  if (lengths.length > 1 || lengths.some((f) => f.includes(','))) return true
  return lengths.length > 0 && names.includes('transfer-encoding')
}

export const DEVIATIONS: Deviation[] = [
  {
    row: 'PIX key and BR Code checks',
    applies: (c, s, _r, ctx) =>
      (c.tags.has('invalid-key') || c.tags.has('invalid-payload')) &&
      (refusesOnly(s, ['pix_key', 'payload']) || (ctx.style === 'fastapi' && unwritable(s))),
  },
  {
    row: 'Bodies over 1 MiB',
    applies: (c, s) => c.tags.has('over-1mib') && s.status === 413,
  },
  {
    row: '`X-Sandbox-Outcome`',
    applies: (c, s) => c.tags.has('outcome-header') && refusesOnly(s, ['X-Sandbox-Outcome']),
  },
  {
    row: "The sandbox's own paths",
    applies: (c) => c.path !== undefined && SANDBOX_PREFIXES.some((p) => c.path!.startsWith(p)),
  },
  {
    row: "What Node's HTTP parser refuses",
    applies: (c, s) => invalidRequest(c, s) && nodeRefuses(c),
  },
  {
    row: "What Node's HTTP parser lets through",
    applies: (c, _s, r) => r.body === INVALID_REQUEST && / {2}/.test(head(c).split('\r\n')[0]!),
  },
  {
    row: '`simple` style: `amount` is a JSON integer',
    applies: (c, s, _r, ctx) =>
      ctx.style === 'simple' && c.tags.has('lax-amount') && refusesOnly(s, ['amount']),
  },
  {
    row: '`simple` style: no echo',
    applies: (_c, s, r, ctx) => ctx.style === 'simple' && unwritable(r) && s.status === 422,
  },
  {
    row: '`Host`',
    applies: (c, s) =>
      s.status === 421 &&
      /^host:[ \t]*[^\s]/im.test(head(c)) &&
      !/^host:[ \t]*(127\.0\.0\.1|localhost|\[::1\])(:\d+)?[ \t]*\r?$/im.test(head(c)),
  },
  {
    row: 'Nesting between 500 and 100,000 levels',
    applies: (c) => c.tags.has('depth-band'),
  },
  {
    row: 'A trailing comma, on CPython before 3.13',
    applies: (_c, s, r, ctx) =>
      ctx.python[0] === 3 &&
      ctx.python[1] < 13 &&
      s.body.includes('Illegal trailing comma') &&
      r.status === 422,
  },
]
