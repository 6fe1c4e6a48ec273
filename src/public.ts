// The package's public types: the root of its declarations (tsconfig.build.json), kept apart
// from index.ts so that they never depend on the server's internals. index.ts is checked
// against these signatures when it compiles.
import type { Control } from './client/control.js'
import type { Sandbox, StartOptions } from './client/types.js'

export { DEFAULT_CREDENTIALS } from './client/types.js'
export type {
  Credential,
  LogLevel,
  Sandbox,
  Settings,
  StartOptions,
  Tenant,
  TenantOptions,
} from './client/types.js'
export { SandboxRequestError } from './client/control.js'
export type {
  AdminOnly,
  CompanyControl,
  Control,
  ControlPaths,
  Delivery,
  DeliveryMatch,
  Readiness,
  Schemas,
  SubscribeOptions,
  Webhook,
  WebhookEvent,
} from './client/control.js'

/** Starts a sandbox in this process: a free port, an in-memory store, the default scenario, silent. */
export declare function startSandbox(options?: StartOptions): Promise<Sandbox>
/** The control client of a sandbox running elsewhere (a container, another process). */
export declare function connectSandbox(url: string, adminToken: string): Control
/** The scenarios shipped with the package (`default`, `many-users`, ...). */
export declare const SCENARIOS_DIR: string
