// Whether an accepted body's `amount` came as something else than a JSON integer: a string,
// a boolean (the fastapi style's lax coercion took them) or a float such as 10.0 or 1e3 (which
// JSON.parse itself turns into an integer). Read from the text, since the parsed value no longer
// tells, and from the top-level `amount` only (one nested in `meta`, or quoted in a description,
// is no amount). The common case, one plain integer `amount` in the body, is found by one regular
// expression; only otherwise is the top level of the object scanned.

/** A plain integer amount, anchored where it is tried (sticky). */
const PLAIN = /"amount"\s*:\s*-?\d+\s*[,}]/y
const MAX_SHOWN = 40

/** What was lenient about `amount` in words (`amount "1000" (a string)`), or null when nothing was. */
export function lenientAmount(body: string): string | null {
  // The body's only "amount", and plain: the top-level one (an accepted body has one), as sent.
  PLAIN.lastIndex = body.indexOf('"amount"')
  if (PLAIN.lastIndex >= 0 && PLAIN.test(body) && body.indexOf('"amount"', PLAIN.lastIndex) < 0)
    return null
  const token = topLevelValue(body, 'amount')
  if (token === null) return null
  const shown = token.length > MAX_SHOWN ? `${token.slice(0, MAX_SHOWN)}...` : token
  if (token.startsWith('"')) return `amount ${shown} (a string)`
  if (token === 'true' || token === 'false') return `amount ${shown} (a boolean)`
  if (/^-?\d/.test(token) && /[.eE]/.test(token)) return `amount ${shown} (a float)`
  return null
}

const WS = /\s/
const skipWs = (t: string, i: number) => {
  while (i < t.length && WS.test(t[i]!)) i++
  return i
}

/** The index after the string opening at `i`. */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === '\\') j++
    else if (t[j] === '"') return j + 1
  }
  return t.length
}

/** The index after the value starting at `i`. */
function valueEnd(t: string, i: number): number {
  const c = t[i]
  if (c === '"') return stringEnd(t, i)
  if (c === '{' || c === '[') {
    let depth = 0
    for (let j = i; j < t.length; j++) {
      const d = t[j]
      if (d === '"') j = stringEnd(t, j) - 1
      else if (d === '{' || d === '[') depth++
      else if ((d === '}' || d === ']') && --depth === 0) return j + 1
    }
    return t.length
  }
  let j = i
  while (j < t.length && !/[\s,}\]]/.test(t[j]!)) j++
  return j
}

/** The raw text of the top-level member `name` of a JSON object (the last one, as JSON.parse keeps), or null. */
export function topLevelValue(t: string, name: string): string | null {
  let i = skipWs(t, 0)
  if (t[i] !== '{') return null
  let found: string | null = null
  i++
  for (;;) {
    i = skipWs(t, i)
    if (t[i] !== '"') return found
    const keyEnd = stringEnd(t, i)
    const key = t.slice(i + 1, keyEnd - 1)
    i = skipWs(t, keyEnd)
    if (t[i] !== ':') return found
    const start = skipWs(t, i + 1)
    const end = valueEnd(t, start)
    if (key === name) found = t.slice(start, end)
    i = skipWs(t, end)
    if (t[i] !== ',') return found
    i++
  }
}
