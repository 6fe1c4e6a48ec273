// The dashboard is an in-process client of the control plane: every read and action goes
// through the same routes (validation, scope, operations, `detail` texts), with the scope of
// the signed-in person handed over in the request's env instead of an Authorization header.
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { AppEnv, Scope } from '../http/env.js'
import { IN_PROCESS_SCOPE } from '../http/sandbox/scope.js'

export interface ControlReply {
  ok: boolean
  status: number
  body: any
}

export type Control = (
  scope: Scope,
  method: string,
  path: string,
  body?: unknown,
) => Promise<ControlReply>

export function controlClient(app: OpenAPIHono<AppEnv>): Control {
  return async (scope, method, path, body) => {
    const init: RequestInit = { method }
    if (body !== undefined) {
      init.body = JSON.stringify(body)
      init.headers = { 'content-type': 'application/json' }
    }
    const res = await app.request(path, init, { [IN_PROCESS_SCOPE]: scope })
    const text = await res.text()
    let parsed: unknown = null
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      parsed = { detail: text }
    }
    return { ok: res.ok, status: res.status, body: parsed }
  }
}

/** The text a refusal shows: the control plane's `detail`, as it answered it. */
export const detailOf = (reply: ControlReply): string => {
  const d = reply.body?.detail
  return typeof d === 'string' ? d : d === undefined ? `HTTP ${reply.status}` : JSON.stringify(d)
}

/** A query string from the defined values only. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(values))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  const s = q.toString()
  return s ? `?${s}` : ''
}
