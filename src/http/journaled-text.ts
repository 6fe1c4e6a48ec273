// The journal keeps the text a handler answered by catching `c.json` (journal.ts). An answer
// written otherwise, FastAPI's plain-text 500 (errors.ts), says its text here, so the journal
// shows what the client got rather than no body. A module of its own: the error handler and the
// journal would otherwise import each other.

const SPAN = Symbol('journal span')

interface Answered {
  responseBody: string | null
}
type WithSpan = { [SPAN]?: Answered }

/** Notes the journal's span of the request `c` answers. */
export const attachSpan = (c: object, span: Answered): void => {
  ;(c as WithSpan)[SPAN] = span
}

/** Tells the journal (when it records this request) the text answered without `c.json`. */
export const journalText = (c: object, text: string): void => {
  const span = (c as WithSpan)[SPAN]
  if (span) span.responseBody = text
}
