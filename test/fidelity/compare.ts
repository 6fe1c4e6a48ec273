// What the differential compares of an answer: status, the headers a client reads
// (content-type, www-authenticate, allow, location) and the body, byte for byte, once values
// that are random by nature (ids, codes, times) are replaced by their shape.
import type { Answer } from './wire.js'

export interface Seen {
  status: number
  ended?: string
  'content-type'?: string
  'www-authenticate'?: string
  allow?: string
  location?: string
  body: string
}

const COMPARED = ['content-type', 'www-authenticate', 'allow', 'location'] as const

/** Random values of the contract's answers, as shapes. */
const SHAPES: Record<string, [RegExp, string]> = {
  transaction_id: [/^(?:[0-9A-Za-z]{32}|E\d{20}[0-9A-Za-z]{11})$/, '<transaction id>'],
  qr_code: [/^000201/, '<BR Code>'],
  qr_code_name: [/ #\d+$/, ' #<n>'],
  expiration_date: [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, '<local date-time>'],
  created_at: [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, '<UTC micros>'],
  updated_at: [/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, '<UTC micros>'],
}

function shaped(text: string): string {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return text
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const shape = SHAPES[k]
    if (!shape || typeof v !== 'string') out[k] = v
    else if (k === 'qr_code_name') out[k] = v.replace(shape[0], shape[1])
    else out[k] = shape[0].test(v) ? shape[1] : v
  }
  return JSON.stringify(out)
}

/** The compared parts of an answer from the server listening on `port`. */
export function seen(a: Answer, port: number): Seen {
  const s: Seen = { status: a.status, body: '' }
  if (a.ended && !a.status) s.ended = a.ended
  for (const h of COMPARED) {
    const v = a.headers[h]
    // Without a usable Host, a redirect names the server's own address.
    if (v !== undefined) s[h] = h === 'location' ? v.replaceAll(`:${port}/`, ':<port>/') : v
  }
  const text = a.body.toString('utf8')
  s.body = a.status === 200 ? shaped(text) : text
  return s
}

/** The parts that differ, by name; empty when the answers agree. */
export function differences(a: Seen, b: Seen): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Seen>
  return [...keys].filter((k) => a[k] !== b[k])
}
