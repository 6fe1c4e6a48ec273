// Removes secrets from what the journal keeps: credentials in headers, secret-looking fields in
// bodies, query strings and form bodies, webhook secrets and the admin token wherever they appear.
const SECRET_FIELD = /secret|token|password|passwd|authorization|api[-_]?key|credential|signature/i
const WHSEC = /whsec_[A-Za-z0-9+/=_-]+/g
export const REDACTED = '[redacted]'

/** Deeper than this, a value is not inspected, so it is not kept either. */
const MAX_DEPTH = 64

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.replace(WHSEC, REDACTED)
  if (value === null || typeof value !== 'object') return value
  if (depth > MAX_DEPTH) return REDACTED
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? REDACTED : redactValue(v, depth + 1)
  return out
}

// A secret-looking field in text that is not parseable JSON (e.g. a truncated body).
const SECRET_PAIR = /("[^"]*(?:secret|token|password|passwd|authorization|api[-_]?key|credential|signature)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"?/gi

// `name=value` pairs (a query string, a form body): the value of a secret-looking name goes,
// whether the name is percent-encoded or not.
const PAIR = /([^&=?;\s]+)=([^&;\s]*)/g
const decodeName = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}
const redactPairs = (text: string) => text.replace(PAIR, (pair, name: string) => (SECRET_FIELD.test(decodeName(name)) ? `${name}=${REDACTED}` : pair))

// The scheme of an Authorization value is kept: the first word, when more follows it.
const SCHEME = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+\S/
const redactCredentials = (value: string) => {
  const scheme = SCHEME.exec(value)?.[1]
  return scheme === undefined ? REDACTED : `${scheme} ${REDACTED}`
}

// Any of these words (or a whsec_ value, or an escape that could spell one) in a text means it
// must be looked at; most bodies have none and are kept as they are, without parsing.
const SUSPICIOUS = /secret|token|passw|authorization|api[-_]?key|credential|signature|whsec_|%|\\u/i

export function createRedactor(secrets: string[]) {
  const literal = secrets.filter((s) => s.length >= 8)
  const scrubLiterals = (text: string) => literal.reduce((t, s) => t.split(s).join(REDACTED), text.replace(WHSEC, REDACTED))
  const scrub = (text: string) => scrubLiterals(text.replace(SECRET_PAIR, `$1"${REDACTED}"`))
  return {
    /** A body as stored text: JSON with secret fields replaced, or scrubbed raw text. */
    body(body: unknown): string | null {
      if (body === null || body === undefined || body === '') return null
      const text = typeof body === 'string' ? body : safeStringify(body)
      if (text === null) return null
      if (!SUSPICIOUS.test(text)) return literal.some((s) => text.includes(s)) ? scrub(text) : text
      if (typeof body === 'string') {
        try {
          return scrub(JSON.stringify(redactValue(JSON.parse(body), 0)))
        } catch {
          // Not JSON: a form body, or a JSON body kept cut.
          return scrub(redactPairs(body))
        }
      }
      try {
        return scrub(JSON.stringify(redactValue(body, 0)))
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
        if (name === 'authorization' || name === 'proxy-authorization') out[name] = scrubLiterals(redactCredentials(value))
        else if (name === 'cookie' || SECRET_FIELD.test(name)) out[name] = REDACTED
        else out[name] = scrub(value)
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
