// Which names hold secrets, and finding them in text of any syntax: a form, a query string, JSON
// that does not parse (cut, a trailing comma, single quotes), YAML, a multipart part, free text.
// JSON that parses is redacted by key instead (redact.ts); this is for everything else.

// Matched anywhere in a name (`x_client_secret`, `privateKey`, `db_pwd`); `auth` only as a word
// of its own (`x-auth`, `basic_auth`), so that `author` is kept.
const WORDS = 'secret|token|passw|passphrase|pwd|authorization|credential|signature|cookie|csrf|xsrf|(?:api|private|access|signing)[-_ ]?key|session[-_ ]?id|(?<![a-z])auth(?![a-z])'
export const SECRET_NAME = new RegExp(WORDS, 'i')
/** A text holding none of these needs no look: no secret name, webhook secret, or escape that could spell either. */
export const SUSPICIOUS = new RegExp(`${WORDS}|whsec_|%|\\\\u`, 'i')

export const REDACTED = '[redacted]'

// A name, then a separator. The name is quoted, or a run of name characters that starts after
// one that cannot be in a name (so a long run is tried once, not from each of its characters:
// the scan stays linear). Only a name holding a secret word, or an escape that could spell one,
// is a candidate (a look-ahead, so the thousands of ordinary names of a large body cost no call).
// The separator is `:` or `=` with any spaces around, a blank line (a multipart part), or, in
// bodies, spaces or tabs alone (`client_secret<TAB>value`).
const NAME_CHAR = String.raw`[^\s"'&=:;,{}()<>?#\\]`
const QUOTED = String.raw`(["'])(?=(?:(?!\1)[^\r\n])*?(?:${WORDS}|%|\\))((?:\\.|(?!\1)[^\\\r\n])*)\1`
const BARE = String.raw`(?<!${NAME_CHAR})(?=${NAME_CHAR}*?(?:${WORDS}|%))(${NAME_CHAR}+)`
const PAIR_IN_BODY = new RegExp(String.raw`(?:${QUOTED}|${BARE})(\s*[:=]\s*|\r?\n\r?\n|[ \t]+)`, 'gi')
const PAIR_IN_HEADER = new RegExp(String.raw`(?:${QUOTED}|${BARE})(\s*[:=]\s*)`, 'gi')

/** A name as the sender meant it: JSON escapes, `+` for a space, percent-encoding. */
function decodeName(name: string): string {
  if (!/[\\%+]/.test(name)) return name
  const unescaped = name.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1')
  try {
    return decodeURIComponent(unescaped.replace(/\+/g, ' '))
  } catch {
    return unescaped
  }
}

const PAIR_END = /[&;,}\]"'\r\n]/g
const LINE_END = /[\r\n]/g
const WORD_END = /[\s&;,}\]"']/g

/** Where a value starting at `start` ends, as its first character says. */
function valueEnd(text: string, start: number, separator: string): number {
  const first = text[start]
  if (first === '"' || first === "'") {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i++
      else if (text[i] === first) return i + 1
    }
    return text.length
  }
  if (first === '{' || first === '[') return bracketEnd(text, start)
  // After `:` or `=`, up to the line's end or the next pair; after a blank line (a multipart
  // part), the whole line; after spaces alone, one word.
  const stop = /[:=]/.test(separator) ? PAIR_END : separator.includes('\n') ? LINE_END : WORD_END
  stop.lastIndex = start
  let end = stop.exec(text)?.index ?? text.length
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--
  return end
}

/** The end of the object or array opening at `start` (strings inside skipped), or the text's end. */
function bracketEnd(text: string, start: number): number {
  let depth = 0
  let quote = ''
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (quote) {
      if (ch === '\\') i++
      else if (ch === quote) quote = ''
    } else if (ch === '"' || ch === "'") quote = ch
    else if (ch === '{' || ch === '[') depth++
    else if ((ch === '}' || ch === ']') && --depth === 0) return i + 1
  }
  return text.length
}

/**
 * The text with the value of every secret-looking name replaced (a quoted value keeps its
 * quotes). `header`: a header's value, where a space separates words, not a name from its value.
 */
export function redactPairs(text: string, header = false): string {
  const pair = header ? PAIR_IN_HEADER : PAIR_IN_BODY
  pair.lastIndex = 0
  let out = ''
  let kept = 0
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const separatorEnd = m.index + m[0].length
    if (!SECRET_NAME.test(decodeName(m[2] ?? m[3]!))) {
      pair.lastIndex = separatorEnd
      continue
    }
    const end = valueEnd(text, separatorEnd, m[4]!)
    // Spaces alone separate a name from a value only when one follows.
    if (end === separatorEnd && m[4]!.trim() === '' && !m[4]!.includes('\n')) continue
    const quote = text[separatorEnd] === '"' || text[separatorEnd] === "'" ? text[separatorEnd] : ''
    out += text.slice(kept, separatorEnd) + quote + REDACTED + quote
    kept = end
    pair.lastIndex = Math.max(end, separatorEnd + 1)
  }
  return kept === 0 ? text : out + text.slice(kept)
}
