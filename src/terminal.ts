// Text from elsewhere (a probed target's answers, a client's request path in a log line, a
// scenario file's content) on its way to a terminal. Control characters there are commands, not
// text: ESC and the C1 CSI start sequences that set the window title, clear the screen or move
// the cursor; BEL rings; bidirectional overrides reorder what is shown. Each becomes a visible
// `\uXXXX`, which is also JSON's escape: a JSON text passed through keeps the same data.

// C0, DEL, C1, the bidi marks, embeddings, overrides and isolates, and the line and paragraph separators.
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g
const UNSAFE_BUT_LINES =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g

const escapeChar = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * `text` safe to print: every control character escaped. `keepLines` keeps line feeds, for a
 * text whose lines are the printer's own (a report); otherwise a line feed is escaped too, so
 * that a value cannot start a line of its own.
 */
export function escapeControls(text: string, { keepLines = false } = {}): string {
  return text.replace(keepLines ? UNSAFE_BUT_LINES : UNSAFE, escapeChar)
}

/**
 * `value` with every string in it escaped, keys included: a report from elsewhere, before a
 * printer lays it out, so that no field of it (an id, a name, a piece of advice) reaches a
 * terminal raw, whichever field a printer picks.
 */
export function escapeStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(escapeStrings) as T
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [escapeControls(k), escapeStrings(v)]),
  ) as T
}

/**
 * `value` as indented JSON for a terminal. JSON.stringify escapes C0 inside strings but not DEL,
 * C1 or the bidi controls; these become `\uXXXX` too, which parses back to the same value.
 */
export const terminalJson = (value: unknown): string =>
  escapeControls(JSON.stringify(value, null, 2), { keepLines: true }) + '\n'
