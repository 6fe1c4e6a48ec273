// What every page is rendered from: who is signed in, the control plane to ask, the scenario's
// time zone, the virtual clock, the public address, and the message of the last action.
import type { paths } from '../client/openapi.js'
import type { Scope } from '../http/env.js'
import { query, type Control, type ControlReply } from './control.js'
import type { Flash } from './session.js'

export interface View {
  scope: Scope
  control: Control
  tz: string
  /** Virtual time now (ISO) and whether the clock is frozen. */
  now: string
  nowUs: number
  frozen: boolean
  publicUrl: string
  flash?: Flash
  /** Set while the page renders when a form showed the flash itself (FormFlash). */
  flashShown?: boolean
}

/** The control plane's paths that answer a GET with JSON. */
type Readable = {
  [P in keyof paths]: paths[P] extends {
    get: { responses: { 200: { content: { 'application/json': unknown } } } }
  }
    ? P
    : never
}[keyof paths]
type Get<P extends Readable> = paths[P]['get']
/** What a GET of `P` answers: the generated type of its declared schema. */
export type Answer<P extends Readable> = Get<P>['responses'][200]['content']['application/json']
type ParametersOf<P extends Readable> = Get<P> extends { parameters: infer X } ? X : never
type Parameters<P extends Readable> = (ParametersOf<P> extends { path: infer A }
  ? { path: A }
  : { path?: never }) &
  (ParametersOf<P> extends { query?: infer Q }
    ? { query?: { [K in keyof Q]?: Q[K] | null } }
    : { query?: never })

/**
 * Asks the control plane a GET, typed by its published document (the types generated from
 * /_sandbox/openapi.json), so a page reads the fields the API declares; throws the reply when
 * refused so the page shows its detail.
 */
export async function read<P extends Readable>(
  view: View,
  path: P,
  params?: Parameters<P>,
): Promise<Answer<P>> {
  const ids = (params?.path ?? {}) as Record<string, string>
  const url =
    path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? '')) +
    query((params?.query ?? {}) as Record<string, string | number | null | undefined>)
  const reply = await view.control(view.scope, 'GET', url)
  if (!reply.ok) throw new Refused(reply)
  return reply.body as Answer<P>
}

/** Companies a filter offers as a list; past that many, their id is typed (a list of thousands helps no one). */
const COMPANY_CHOICES = 100

/** The ids a company filter offers the admin, oldest first; undefined for anyone else, or when there are too many to list. */
export async function companyChoices(view: View): Promise<string[] | undefined> {
  if (!view.scope.admin) return undefined
  const page = await read(view, '/companies', { query: { limit: COMPANY_CHOICES } })
  return page.next_cursor === null ? page.data.map((co) => co.company_id) : undefined
}

/** Refuses a form before asking anyone: its `detail` is shown as the control plane's are, in `form` when given. */
export function refuse(detail: string, form?: string, lines?: string[]): never {
  throw new Refused({ ok: false, status: 422, body: { detail } }, form, lines)
}

export class Refused extends Error {
  constructor(
    readonly reply: ControlReply,
    /** The form whose card shows the refusal (FormFlash). */
    readonly form?: string,
    /** Its problems, one a line. */
    readonly lines?: string[],
  ) {
    super(`HTTP ${reply.status}`)
  }
}
