// From an exchange to an answer: what the side said, reduced to what the row compares, or why
// nothing could be observed (timeout, reset, HTML, a server error).
import { typeOf } from './shape.js'
import type { Answer, Exchange, Observation, Reply } from './types.js'

/** A reason the target's answer tells nothing about the contract, or undefined when it does. */
export function unusable(ex: Exchange, expectServerError = false): string | undefined {
  if (ex.failure)
    return `${ex.failure.kind === 'timeout' ? 'timed out' : 'failed'}: ${ex.failure.message}`
  const r = ex.reply!
  const type = mediaType(r)
  if (type === 'text/html' || /^\s*<(!doctype|html)/i.test(r.text))
    return `answered an HTML page (status ${r.status})`
  if (r.status >= 500 && !expectServerError)
    return `answered ${r.status}${r.text ? `: ${r.text.slice(0, 80)}` : ''}`
  return undefined
}

/** Observes an exchange; an observer that trips on an odd body yields the body instead of a crash. */
export function answerOf(ex: Exchange, observe: (r: Reply) => Observation): Answer {
  const reason = unusable(ex)
  if (reason) return { unobservable: reason }
  try {
    return { observed: observe(ex.reply!) }
  } catch {
    return { observed: { status: ex.reply!.status, unexpected_body: ex.reply!.text.slice(0, 200) } }
  }
}

export const mediaType = (r: Reply) =>
  (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()

/** `simple` (`detail` is text), `fastapi` (a list of pydantic errors), or what it was instead. */
export function errorStyle(body: unknown): string {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (typeof detail === 'string') return 'simple'
  if (
    Array.isArray(detail) &&
    detail.every((d) => d && typeof d === 'object' && 'loc' in d && 'type' in d)
  )
    return 'fastapi'
  return body === undefined ? 'no JSON body' : `other (${typeOf(detail)} detail)`
}

/** `detail` as text, or each pydantic error as `body.amount greater_than: Input should be ...`. */
export function detailOf(body: unknown): string | string[] | undefined {
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (Array.isArray(detail)) {
    return detail.map(
      (d: { loc?: unknown[]; type?: string; msg?: string }) =>
        `${Array.isArray(d.loc) ? d.loc.join('.') : '?'} ${d.type ?? '?'}: ${d.msg ?? ''}`,
    )
  }
  return typeof detail === 'string' ? detail : undefined
}

/** Status, media type and `detail`, plus the named headers: the common core of most rows. */
export function errorAnswer(headers: string[] = []) {
  return (r: Reply): Observation => {
    const o: Observation = { status: r.status }
    if (r.text) o.content_type = mediaType(r) || 'none'
    if (r.status === 422 && r.json !== undefined) o.style = errorStyle(r.json)
    const detail = detailOf(r.json)
    if (detail !== undefined) o.detail = detail
    else if (r.text) o.body = r.text.slice(0, 200)
    for (const h of headers) o[h] = r.headers[h] ?? 'absent'
    return o
  }
}

export function sameObservation(a: Observation, b: Observation): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
