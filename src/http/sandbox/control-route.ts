// Declares and mounts one control-plane route: authentication, the admin check where the
// operation is global, validation against the declaration, then the handler, as one handler.
import type { OpenAPIHono, RouteConfig, RouteConfigToTypedResponse } from '@hono/zod-openapi'
import type { Context, TypedResponse } from 'hono'
import type { z } from 'zod'
import type { AppEnv, HttpDeps } from '../env.js'
import { mount } from '../route.js'
import { after } from '../maybe-async.js'
import { Detail, jsonAnswer } from './schemas.js'
import { inputValidator } from './input.js'
import { credentialsOwner } from '../body-owner.js'
import { notFound } from '../../domain/errors.js'
import { ERRORS as DETAILS } from '../errors.js'
import { ADMIN_ONLY, controlScope } from './scope.js'

const one = (name: string, summary: string, detail: string) => ({
  [name]: { summary, value: { detail } },
})

/** The record an id in a path names, by the collection it sits in. */
const RECORD_OF: Record<string, string> = {
  charges: 'Charge',
  transfers: 'Transfer',
  webhooks: 'Webhook',
  deliveries: 'Delivery',
  companies: 'Company',
  users: 'User',
}

/** What a route's 404 says: its record's "not found", or, without an id in the path, a `company_id` of another company's. */
function notFoundAnswer(path: string) {
  const collection = [...path.matchAll(/\/(\w+)\/\{\w+\}/g)].pop()?.[1]
  const what = (collection && RECORD_OF[collection]) ?? 'Company'
  const summary = collection
    ? `An unknown ${what.toLowerCase()} (or another company's)`
    : 'A company_id of another company'
  return jsonAnswer(
    'Unknown id, or an id of another company.',
    Detail,
    one('not_found', summary, notFound(what).detail!),
  )
}

// Each with one answer the sandbox gives, as an example of the kind.
const ERRORS = {
  401: jsonAnswer(
    'Missing or wrong credentials.',
    Detail,
    one('not_authenticated', 'Wrong or missing credentials', DETAILS.not_authenticated.detail),
  ),
  403: jsonAnswer(
    'A global operation called with company credentials.',
    Detail,
    one('admin_only', 'Company credentials on a global operation', ADMIN_ONLY),
  ),
  409: jsonAnswer(
    'The state does not allow this transition.',
    Detail,
    one('charge_paid', 'Paying a charge already paid', 'Charge is paid'),
  ),
  422: jsonAnswer(
    'A bad body or query.',
    Detail,
    one(
      'invalid_body',
      'A company without a name',
      'name: Too small: expected string to have >=1 characters',
    ),
  ),
}

/** The 403 only a global operation answers, apart from the errors any route may answer. */
const { 403: ADMIN_ONLY_ANSWER, ...SHARED_ERRORS } = ERRORS

/**
 * Adds the shared error responses and the security schemes to a declaration: who may call it is
 * published as it is enforced (a global operation takes the admin token only and is the one that
 * answers 403 to a company's credentials), so /docs and generated clients show it per operation.
 */
export function declare<R extends RouteConfig>(route: R, access: 'admin' | 'scoped'): R {
  return {
    ...route,
    tags: route.tags ?? ['Sandbox'],
    security:
      route.security ??
      (access === 'admin' ? [{ adminToken: [] }] : [{ adminToken: [] }, { basicAuth: [] }]),
    responses: {
      ...SHARED_ERRORS,
      ...(access === 'admin' && { 403: ADMIN_ONLY_ANSWER }),
      404: notFoundAnswer(route.path),
      ...route.responses,
    },
  }
}

export type Output<S> = S extends z.ZodType ? z.output<S> : Record<string, never>
type Part<R extends RouteConfig, K extends 'params' | 'query'> =
  R['request'] extends Record<K, infer S> ? Output<S> : Record<string, never>
type Body<R extends RouteConfig> = R['request'] extends {
  body: { content: { 'application/json': { schema: infer S } } }
}
  ? Output<S>
  : Record<string, never>

/** A request's input as its declaration validated it. */
export interface ControlInput<R extends RouteConfig> {
  params: Part<R, 'params'>
  query: Part<R, 'query'>
  body: Body<R>
}

/**
 * A control handler: given the validated input, it answers one of the route's declared
 * responses (`c.json(record, 200)`), so the compiler holds each answer to its published
 * schema; a refusal is thrown (AppError).
 */
export type ControlHandler<R extends RouteConfig> = (
  c: Context<AppEnv>,
  input: ControlInput<R>,
) => RouteConfigToTypedResponse<R> | Promise<RouteConfigToTypedResponse<R>>

export function controlRoute<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  deps: HttpDeps,
  route: R,
  access: 'admin' | 'scoped',
  handler: ControlHandler<R>,
): void {
  const declared = declare(route, access)
  const authorize = controlScope(deps, access)
  const validate = inputValidator(declared, credentialsOwner(deps))
  // One handler rather than a middleware per step: each layer of async middleware costs every
  // call an async frame, and a test suite creates a tenant or resets before each of its tests.
  mount(app, declared, (c) => {
    authorize(c)
    // A typed response is a Response at run time; its type only carries the declared schema.
    return after(
      validate(c),
      () =>
        handler(c, c.get('input') as ControlInput<R>) as unknown as Response | Promise<Response>,
    )
  })
}

/** A 204 as its declaration types it (Hono types `c.body(null, 204)` as a null body, the declaration as none). */
export const noContent = (c: Context<AppEnv>) =>
  c.body(null, 204) as unknown as TypedResponse<{}, 204, string>
