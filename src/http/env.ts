// The Hono environment shared by every route: what middleware hands to handlers, and the
// dependencies the HTTP layer is built from.
import type { Principal } from '../domain/types.js'
import type { Log } from '../log.js'
import type { Authenticator } from '../operations/authenticate.js'
import type { Context as SandboxContext } from '../operations/context.js'
import type { RawBody } from './validation.js'

export interface AppEnv {
  Variables: {
    principal: Principal
    rawBody: RawBody
    body: unknown
  }
}

export interface HttpDeps {
  sandbox: SandboxContext
  authenticate: Authenticator
  log: Log
  version: string
  environment: 'sandbox'
}
