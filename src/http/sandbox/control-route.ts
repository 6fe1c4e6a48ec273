// Declares and mounts one control-plane route: authentication, the admin check where the
// operation is global, validation against the declaration, then the handler, as one handler.
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import type { AppEnv, HttpDeps } from '../env.js'
import { mount, type Step } from '../route.js'
import { after } from '../maybe-async.js'
import { Detail } from './schemas.js'
import { inputValidator } from './input.js'
import { controlScope } from './scope.js'

const ERRORS = {
  401: { description: 'Missing or wrong credentials.', content: { 'application/json': { schema: Detail } } },
  403: { description: 'A global operation called with company credentials.', content: { 'application/json': { schema: Detail } } },
  404: { description: 'Unknown id, or an id of another company.', content: { 'application/json': { schema: Detail } } },
  409: { description: 'The state does not allow this transition.', content: { 'application/json': { schema: Detail } } },
  422: { description: 'A bad body or query.', content: { 'application/json': { schema: Detail } } },
}

/** Adds the shared error responses and the security schemes to a declaration. */
export function declare<R extends RouteConfig>(route: R): R {
  return {
    ...route,
    tags: route.tags ?? ['Sandbox'],
    security: route.security ?? [{ adminToken: [] }, { basicAuth: [] }],
    responses: { ...ERRORS, ...route.responses },
  }
}

export function controlRoute(
  app: OpenAPIHono<AppEnv>,
  deps: HttpDeps,
  route: RouteConfig,
  access: 'admin' | 'scoped',
  handler: Step,
): void {
  const declared = declare(route)
  const authorize = controlScope(deps, access)
  const validate = inputValidator(declared)
  // One handler rather than a middleware per step: each layer of async middleware costs every
  // call an async frame, and a test suite creates a tenant or resets before each of its tests.
  const { store } = deps.sandbox
  mount(app, declared, (c, next) => {
    authorize(c)
    return after(validate(c), () => store.answering(() => handler(c, next)))
  })
}
