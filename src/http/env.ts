// The Hono environment shared by every route: what middleware hands to handlers, and the
// dependencies the HTTP layer is built from.
import type { Principal } from '../domain/types.js'
import type { Log } from '../log.js'
import type { Authenticator } from '../operations/authenticate.js'
import type { Context as SandboxContext } from '../operations/context.js'
import type { WebhookWorker } from '../webhooks/worker.js'
import type { RequestJournal } from './request-journal.js'

/** Who calls the control plane: the admin token, or a company's own Basic credentials. */
export type Scope =
  | { admin: true; companyId?: undefined }
  | { admin: false; companyId: string; principal: Principal }

export interface AppEnv {
  Variables: {
    principal: Principal
    scope: Scope
    body: unknown
    input: { params: any; query: any; body: any }
    /** The schemes a 401 announces in `WWW-Authenticate` (the contract's: Basic only). */
    challenges: readonly string[]
  }
}

export interface HttpDeps {
  sandbox: SandboxContext
  adminToken: string
  scenariosDir: string
  /** The scenario `reset` loads when the body names none. */
  startScenario: string
  webhooks: WebhookWorker
  journal: RequestJournal
  webhookAllowedHosts: string[] | undefined
  authenticate: Authenticator
  log: Log
  version: string
  environment: 'sandbox'
  /** Aborted when the server starts to close: long-lived responses (the dashboard's stream) end. */
  stopping?: AbortSignal
}
