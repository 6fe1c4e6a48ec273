// Which names hold secrets, and finding them in text of any syntax: a form, a query string, JSON
// that does not parse (cut, a trailing comma, single quotes), XML, YAML (block scalars too), a
// multipart part, free text, and the string values of JSON that parses (redact.ts).

// Matched anywhere in a name (`x_client_secret`, `privateKey`, `db_pwd`); `auth` and `pass` only
// as words of their own (`x-auth`, `basic_auth`, `x-pass`), so that `author`, `passed` and
// `compass` are kept.
const WORDS =
  'secret|token|passw|passphrase|pwd|authorization|credential|signature|cookie|csrf|xsrf|(?:api|private|access|signing)[-_ ]?key|session[-_ ]?id|(?<![a-z])(?:auth|pass)(?![a-z])'
export const SECRET_NAME = new RegExp(WORDS, 'i')
/** A text holding none of these needs no look: no secret name, webhook secret, or escape that could spell either. */
export const SUSPICIOUS = new RegExp(`${WORDS}|whsec_|%|\\\\u`, 'i')

export const REDACTED = '[redacted]'

// A name, then a separator. The name is quoted, or a run of name characters that starts after
// one that cannot be in a name (so a long run is tried once, not from each of its characters:
// the scan stays linear). Only a name holding a secret word, or an escape that could spell one,
// is a candidate (a look-ahead, so the thousands of ordinary names of a large body cost no call).
// The separators:
// - `:`, `=`, `=>` or `:=`, with any white space around (a line break too: YAML's `name:` and
//   its value on the next line);
// - `>` closing an XML start tag (`<name>` or `<name attr="x">`; attributes at most 256
//   characters, so that a failed try costs a bounded look);
// - in bodies only, white space alone: spaces, tabs, U+00A0, U+3000 (one word follows), or a
//   line break (the next line: a multipart part's blank line, or `name` and its value on two
//   lines). Not in a header's value or a JSON string, where a space separates words of prose.
const NAME_CHAR = String.raw`[^\s"'&=:;,{}()<>?#\\]`
const QUOTED = String.raw`(["'])(?=(?:(?!\1)[^\r\n])*?(?:${WORDS}|%|\\))((?:\\.|(?!\1)[^\\\r\n])*)\1`
const BARE = String.raw`(?<!${NAME_CHAR})(?=${NAME_CHAR}*?(?:${WORDS}|%))(${NAME_CHAR}+)`
const ASSIGN = String.raw`\s*(?:=>|:=|[:=])\s*`
const TAG_END = String.raw`(?:[^\S\r\n][^<>\r\n]{0,256})?>`
const pairs = (separators: string) =>
  new RegExp(String.raw`(?:${QUOTED}|${BARE})(${separators})`, 'gi')
const PAIR = {
  body: pairs(`${ASSIGN}|${TAG_END}|\\s+`),
  value: pairs(`${ASSIGN}|${TAG_END}`),
  header: pairs(ASSIGN),
}
export type PairMode = keyof typeof PAIR

/** A name as the sender meant it: JSON escapes, `+` for a space, percent-encoding. */
function decodeName(name: string): string {
  if (!/[\\%+]/.test(name)) return name
  const unescaped = name
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(.)/g, '$1')
  try {
    return decodeURIComponent(unescaped.replace(/\+/g, ' '))
  } catch {
    return unescaped
  }
}

const PAIR_END = /[&;,}\]"'\r\n]/g
const LINE_END = /[\r\n]/g
const WORD_END = /[\s&;,}\]"']/g
// A YAML block scalar's header (`|`, `>-`, `|2`), alone on its line but for a comment.
const BLOCK_HEADER = /[|>][-+1-9]{0,2}[^\S\r\n]*(?:#[^\r\n]*)?(?=\r?\n|$)/y
const CDATA_START = '<![CDATA['

type SeparatorKind = 'assign' | 'tag' | 'line' | 'word'
const ASSIGNED = new RegExp(`^${ASSIGN}$`)
// A tag's attributes may hold `=` too (`<password type="x">`): whether it is an assignment is
// read from the whole separator.
const kindOf = (separator: string): SeparatorKind =>
  ASSIGNED.test(separator)
    ? 'assign'
    : separator.endsWith('>')
      ? 'tag'
      : /[\r\n]/.test(separator)
        ? 'line'
        : 'word'

/** Where a value starting at `start` ends, as its separator and first character say. */
function valueEnd(text: string, start: number, kind: SeparatorKind, nameStart: number): number {
  const first = text[start]
  if (kind === 'tag') {
    // An element's text, up to the next tag; a CDATA section to its end.
    if (text.startsWith(CDATA_START, start)) {
      const close = text.indexOf(']]>', start)
      return close < 0 ? text.length : close + 3
    }
    const next = text.indexOf('<', start)
    return next < 0 ? text.length : next
  }
  if (first === '"' || first === "'") {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i++
      else if (text[i] === first) return i + 1
    }
    return text.length
  }
  if (first === '{' || first === '[') return bracketEnd(text, start)
  if (kind === 'assign' && (first === '|' || first === '>')) {
    BLOCK_HEADER.lastIndex = start
    if (BLOCK_HEADER.test(text)) return blockEnd(text, BLOCK_HEADER.lastIndex, nameStart)
  }
  // After `:` or `=`, up to the line's end or the next pair; after a line break, the whole line;
  // after spaces alone, one word.
  const stop = kind === 'assign' ? PAIR_END : kind === 'line' ? LINE_END : WORD_END
  stop.lastIndex = start
  let end = stop.exec(text)?.index ?? text.length
  while (end > start && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--
  return end
}

/**
 * The end of a YAML block scalar whose header ends at `from`: its lines are those indented
 * deeper than its name, blank lines among them. Each line is looked at once.
 */
function blockEnd(text: string, from: number, nameStart: number): number {
  const indent = nameStart - (text.lastIndexOf('\n', nameStart - 1) + 1)
  let end = from
  for (let lineStart = text.indexOf('\n', from) + 1; lineStart > 0; ) {
    let i = lineStart
    while (text[i] === ' ' || text[i] === '\t') i++
    const blank = i === text.length || text[i] === '\r' || text[i] === '\n'
    if (!blank && i - lineStart <= indent) break
    LINE_END.lastIndex = i
    const lineEnd = LINE_END.exec(text)?.index ?? text.length
    if (!blank) end = lineEnd
    lineStart = text.indexOf('\n', lineEnd) + 1
  }
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

/** An XML start tag: `<name...>` on its own, not a closing `</name>` or an empty `<name/>`. */
const isStartTag = (text: string, nameStart: number, name: string, separator: string) =>
  text[nameStart - 1] === '<' &&
  !name.startsWith('/') &&
  !name.endsWith('/') &&
  !separator.endsWith('/>')

/**
 * The text with the value of every secret-looking name replaced (a quoted value keeps its
 * quotes). `mode`: `body` for a body or query string; `value` for a string inside parsed JSON
 * and `header` for a header's value, where white space separates words, not a name from its value.
 */
export function redactPairs(text: string, mode: PairMode = 'body'): string {
  const pair = PAIR[mode]
  pair.lastIndex = 0
  let out = ''
  let kept = 0
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const separatorEnd = m.index + m[0].length
    const name = m[2] ?? m[3]!
    const separator = m[4]!
    const kind = kindOf(separator)
    if (
      !SECRET_NAME.test(decodeName(name)) ||
      (kind === 'tag' && (m[3] === undefined || !isStartTag(text, m.index, name, separator)))
    ) {
      pair.lastIndex = separatorEnd
      continue
    }
    const end = valueEnd(text, separatorEnd, kind, m.index)
    // White space or a tag separates a name from a value only when one follows.
    if (kind !== 'assign' && text.slice(separatorEnd, end).trim() === '') continue
    const quote =
      kind !== 'tag' && (text[separatorEnd] === '"' || text[separatorEnd] === "'")
        ? text[separatorEnd]
        : ''
    out += text.slice(kept, separatorEnd) + quote + REDACTED + quote
    kept = end
    pair.lastIndex = Math.max(end, separatorEnd + 1)
  }
  return kept === 0 ? text : out + text.slice(kept)
}
