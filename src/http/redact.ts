// Removes secrets from what the journal keeps: credentials in headers, secret-looking fields in
// bodies, webhook secrets and the admin token wherever they appear.
const SECRET_FIELD = /secret|token|password|passwd|authorization|api[-_]?key|credential|signature/i
const WHSEC = /whsec_[A-Za-z0-9+/=_-]+/g
export const REDACTED = '[redacted]'

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.replace(WHSEC, REDACTED)
  if (value === null || typeof value !== 'object' || depth > 64) return value
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELD.test(k) ? REDACTED : redactValue(v, depth + 1)
  return out
}

// A secret-looking field in text that is not parseable JSON (e.g. a truncated body).
const SECRET_PAIR = /("[^"]*(?:secret|token|password|passwd|authorization|api[-_]?key|credential|signature)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"?/gi

// Any of these words (or a whsec_ value) in a text means it must be looked at; most bodies have
// none and are kept as they are, without parsing.
const SUSPICIOUS = /secret|token|passw|authorization|api[-_]?key|credential|signature|whsec_/i

export function createRedactor(secrets: string[]) {
  const literal = secrets.filter((s) => s.length >= 8)
  const scrub = (text: string) =>
    literal.reduce((t, s) => t.split(s).join(REDACTED), text.replace(WHSEC, REDACTED).replace(SECRET_PAIR, `$1"${REDACTED}"`))
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
          return scrub(body)
        }
      }
      try {
        return scrub(JSON.stringify(redactValue(body, 0)))
      } catch {
        return null
      }
    },
    headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
      const out: Record<string, string> = {}
      for (const [name, raw] of Object.entries(headers)) {
        if (raw === undefined) continue
        const value = Array.isArray(raw) ? raw.join(', ') : raw
        if (name === 'authorization' || name === 'proxy-authorization') out[name] = `${value.split(' ')[0]} ${REDACTED}`
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
