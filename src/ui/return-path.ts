// Where a dashboard form may send the browser once it has acted (its `back` or `next` field, the
// Referer): a page of the dashboard on this origin, or nothing. Read before the action runs, so a
// hostile value can only fall back to the page's own URL: a CR or LF that reached the Location
// header once made the answer a 500 after the charge was paid.
import { UI_BASE } from './session.js'

const MAX_LENGTH = 2048
// C0, DEL and C1: the URL parser would drop a tab or a line break silently, and a header cannot hold them.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
// Any origin will do to resolve a path: the result must stay on it.
const PROBE_ORIGIN = 'http://dashboard.invalid'

/**
 * The path (and query) to redirect to, normalized (dot segments resolved, unsafe characters
 * percent-encoded), or undefined when `raw` is not a dashboard page: not a string, too long,
 * holding control characters or a backslash, a scheme-relative `//host`, on another origin than
 * `origin` (an absolute URL, as a Referer is), or outside `/_sandbox/ui`.
 */
export function returnPath(raw: unknown, origin = PROBE_ORIGIN): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_LENGTH || CONTROL.test(raw) || raw.includes('\\'))
    return undefined
  if (!raw.startsWith('/') && !raw.startsWith(`${origin}/`)) return undefined
  if (raw.startsWith('//')) return undefined
  let url: URL
  try {
    url = new URL(raw, origin)
  } catch {
    return undefined
  }
  if (url.origin !== origin) return undefined
  if (url.pathname !== UI_BASE && !url.pathname.startsWith(`${UI_BASE}/`)) return undefined
  return url.pathname + url.search
}
