// Removes secrets from what the journal keeps: credentials in headers, secret-looking fields in
// bodies, query strings and form bodies, webhook secrets and the admin token wherever they appear.
// A body that parses as JSON is redacted by key, and its strings by name like any other text
// (a string may hold a form, a query string or JSON of its own); any other body by name,
// whatever the syntax around it (secret-names.ts).
import { REDACTED, SECRET_NAME, SUSPICIOUS, redactPairs } from './secret-names.js'

export { REDACTED }
const WHSEC = /whsec_[A-Za-z0-9+/=_-]+/g
// A password carried with no secret name: a URL's user:password@ and curl's -u/--user user:password
// (a body may quote a command or a webhook URL). Bounded runs, so a hostile text scans in linear time.
const URL_PASSWORD = /(:\/\/[^\s/:@"'<>]{1,256}:)[^\s/@"'<>]{1,256}@/g
const CURL_PASSWORD = /((?:^|\s)(?:-u|--user)(?:\s+|=)[^\s:"']{1,256}:)[^\s"']{1,256}/g
const scrubPasswords = (text: string) =>
  text.includes('@') || text.includes('-u')
    ? text.replace(URL_PASSWORD, `$1${REDACTED}@`).replace(CURL_PASSWORD, `$1${REDACTED}`)
    : text

/** Deeper than this, a value is not inspected, so it is not kept either. */
const MAX_DEPTH = 64

// A string of a parsed body is scanned as prose: only `name=value`, `name: value`, a JSON pair
// or an XML element counts, not a name and a word after a space ("new token please" is kept).
const redactString = (value: string) =>
  SUSPICIOUS.test(value) ? redactPairs(value.replace(WHSEC, REDACTED), 'value') : value

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactString(value)
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) return REDACTED
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    out[k] = SECRET_NAME.test(k) ? REDACTED : redactValue(v, depth + 1)
  return out
}

// The scheme of an Authorization value is kept: the first word, when more follows it.
const SCHEME = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+\S/
const redactCredentials = (value: string) => {
  const scheme = SCHEME.exec(value)?.[1]
  return scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`
}

export function createRedactor(secrets: string[]) {
  const literal = secrets.filter((s) => s.length >= 8)
  const scrubLiterals = (text: string) =>
    literal.reduce(
      (t, s) => t.split(s).join(REDACTED),
      scrubPasswords(text.replace(WHSEC, REDACTED)),
    )
  return {
    /** A body as stored text: JSON with secret fields replaced, or text with the values of secret names replaced. */
    body(body: unknown): string | null {
      if (body === null || body === undefined || body === '') return null
      const text = typeof body === 'string' ? body : safeStringify(body)
      if (text === null) return null
      if (!SUSPICIOUS.test(text))
        return literal.some((s) => text.includes(s)) ? scrubLiterals(text) : scrubPasswords(text)
      if (typeof body === 'string') {
        try {
          return scrubLiterals(JSON.stringify(redactValue(JSON.parse(body), 0)))
        } catch {
          // Not JSON: a form body, a JSON body kept cut or written loosely, any other text.
          return scrubLiterals(redactPairs(body))
        }
      }
      try {
        return scrubLiterals(JSON.stringify(redactValue(body, 0)))
      } catch {
        return null
      }
    },
    /** A query string (`?name=value&...`). */
    query(query: string): string {
      return SUSPICIOUS.test(query) ? scrubLiterals(redactPairs(query)) : scrubLiterals(query)
    },
    headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
      const out: Record<string, string> = {}
      for (const [name, raw] of Object.entries(headers)) {
        if (raw === undefined) continue
        const value = Array.isArray(raw) ? raw.join(', ') : raw
        if (name === 'authorization' || name === 'proxy-authorization')
          out[name] = scrubLiterals(redactCredentials(value))
        else if (name === 'cookie' || SECRET_NAME.test(name)) out[name] = REDACTED
        else
          out[name] = scrubLiterals(SUSPICIOUS.test(value) ? redactPairs(value, 'header') : value)
      }
      return out
    },
  }
}

function safeStringify(value: unknown): string | null {
  try {
    return JSON.stringify(value)
  } catch {
    return null
  }
}
