// The dashboard is an in-process client of the control plane and of the contract: every read and
// action goes through the same routes (validation, scope, operations, `detail` texts), with the
// signed-in person's scope (or the principal of the credential they act as) handed over in the
// request's env instead of an Authorization header. Reads ask the dashboard's own instance of the
// control routes, which nothing journals (a page reads a dozen times); an action asks the
// sandbox's app, so that the journal, the Requests page and readiness see it as the same curl.
import type { Principal } from '../domain/types.js'
import { IN_PROCESS_PRINCIPAL } from '../http/auth.js'
import { CONTRACT_BASE } from '../http/contract/index.js'
import type { Scope } from '../http/env.js'
import { IN_PROCESS_SCOPE } from '../http/sandbox/scope.js'
import { SANDBOX_BASE } from '../http/sandbox/index.js'

export interface ControlReply {
  ok: boolean
  status: number
  body: any
}

/** Hands a request to an app in process (Hono's `app.request`). */
export type Send = (path: string, init: RequestInit, env: object) => Response | Promise<Response>

/** A call to the control plane (`path` under /_sandbox) with the scope of the signed-in person. */
export type Control = (
  scope: Scope,
  method: string,
  path: string,
  body?: unknown,
) => Promise<ControlReply>

/** A call to the contract (`path` under /api/v1) as the principal of one credential. */
export type Contract = (
  principal: Principal,
  method: string,
  path: string,
  body?: unknown,
) => Promise<ControlReply>

// A path the dashboard builds from an id is one segment per id: `.` or `..` would let the URL
// parser move the call elsewhere, so such a path is answered 404 without being asked.
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:[/?]|$)/

async function ask(
  send: Send,
  path: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
  env: object,
): Promise<ControlReply> {
  if (DOT_SEGMENT.test(path)) return { ok: false, status: 404, body: { detail: 'Not Found' } }
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = JSON.stringify(body)
    ;(init.headers as Record<string, string>)['content-type'] = 'application/json'
  }
  const res = await send(path, init, env)
  const text = await res.text()
  let parsed: unknown = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = { detail: text }
  }
  return { ok: res.ok, status: res.status, body: parsed }
}

/**
 * `read` answers GETs (the dashboard's own instance of the control routes, paths relative to
 * /_sandbox); `act` is the sandbox's app, journaled, for everything that changes something.
 */
export function controlClient(
  read: Send,
  act: Send,
  version: string,
): { control: Control; contract: Contract } {
  // What the journal shows an action came from, as curl's shows `curl/8.5.0`.
  const headers = { accept: 'application/json', 'user-agent': `pix-sandbox-dashboard/${version}` }
  return {
    control: (scope, method, path, body) =>
      method === 'GET'
        ? ask(read, path, method, body, {}, { [IN_PROCESS_SCOPE]: scope })
        : ask(act, SANDBOX_BASE + path, method, body, headers, { [IN_PROCESS_SCOPE]: scope }),
    contract: (principal, method, path, body) =>
      ask(act, CONTRACT_BASE + path, method, body, headers, { [IN_PROCESS_PRINCIPAL]: principal }),
  }
}

/** The text a refusal shows: the control plane's `detail`, as it answered it. */
export const detailOf = (reply: ControlReply): string => {
  const d = reply.body?.detail
  if (typeof d === 'string') return d
  if (d === undefined) return `HTTP ${reply.status}`
  // The contract's fastapi style: a list of {loc, msg}, said as `amount: msg`.
  if (Array.isArray(d) && d.every((e) => e && Array.isArray(e.loc) && typeof e.msg === 'string'))
    return d
      .map((e) => `${e.loc.filter((p: unknown) => p !== 'body').join('.')}: ${e.msg}`)
      .join('; ')
  return JSON.stringify(d)
}

/** A query string from the defined values only. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `?${s}` : ''
}
