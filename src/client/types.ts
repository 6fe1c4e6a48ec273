// The public types of the package and the default credentials: no runtime beyond the control
// client, so that the package's declarations (tsconfig.build.json, from src/public.ts) need
// nothing of the server's internals.
import type { z } from 'zod'
import type { CompanyControl, Control, Readiness } from './control.js'
import type { paths } from './openapi.js'
import type { settingsSchema } from '../scenarios/settings.js'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
/** Scenario settings (scenarios/scenario.schema.json), e.g. `{ charge_ttl_seconds: 60 }`. */
export type Settings = z.input<typeof settingsSchema>

export interface StartOptions {
  /** Scenario loaded at start and by reset() (default `default`), from `scenariosDir`. */
  scenario?: string
  /** Where scenarios are read from (default: the package's own). */
  scenariosDir?: string
  /** Settings applied on top of the scenario, again after every reset(). */
  settings?: Settings
  /** Makes ids, generated data and webhook chaos deterministic. */
  seed?: string
  /**
   * ISO 8601 instant (`2026-03-01T12:00:00Z`): the clock starts frozen there, and reset() takes it
   * back there. With `seed` too, two runs of the same calls get the same answers, byte for byte.
   */
  startTime?: string
  /** Companies the sandbox holds at most, tenants and scenarios alike (default 10,000): past it, a 422 names the limit. */
  maxCompanies?: number
  /** SQLite file (default `:memory:`: nothing is written). */
  database?: string
  /** Base of the BR Code locations (default `http://localhost:<port>`). */
  publicUrl?: string
  /** Bearer token of the control plane (default: a random one, in `adminToken`). */
  adminToken?: string
  /** Port (default 0: a free one) and interface (default 127.0.0.1). */
  port?: number
  host?: string
  /**
   * Host names answered beyond 127.0.0.1, localhost, [::1] and `publicUrl`'s (`.example.com`: it
   * and every name under it; `*`: any): on a loopback `host`, any other `Host` is refused (421), a
   * guard against DNS rebinding (docs/SECURITY.md).
   */
  allowedHosts?: string[]
  /** Log level, written to stdout (default `silent`). */
  logLevel?: LogLevel
}

export interface Credential {
  clientId: string
  clientSecret: string
  /** The whole `Authorization` header value: `Basic base64(client_id:client_secret)`. */
  authorization: string
}

export interface Tenant {
  companyId: string
  userId: string
  /** The contract's base URL (`…/api/v1`). */
  baseUrl: string
  authorization: string
  credentials: Credential
  /** A control client scoped to this company (its Basic credentials); the admin-only helpers (`reset`, `clock`) are on the sandbox's. */
  control: CompanyControl
}

/** The body of `POST /_sandbox/companies` (generated from the control plane's OpenAPI). */
export type TenantOptions = NonNullable<
  paths['/companies']['post']['requestBody']
>['content']['application/json']

export interface Sandbox {
  /** Where the server listens, e.g. `http://127.0.0.1:41234`. */
  url: string
  /** The contract's base URL: `url` + `/api/v1`. */
  baseUrl: string
  adminToken: string
  /** The default scenario's credentials (README, "Default credentials"). */
  credentials: typeof DEFAULT_CREDENTIALS
  /** The control plane, with the admin token. */
  control: Control
  /** A fresh, isolated company: its own credentials, balance and Providers. */
  tenant(options?: TenantOptions): Promise<Tenant>
  /** Back to the start: state, clock, journal, outcomes, faults, webhooks, readiness (then `settings` again). */
  reset(): Promise<void>
  /**
   * Is the integration ready? The behaviours your suite has met and the findings (docs/READINESS.md):
   * every company's together, or `companyId`'s. A tenant's own: `tenant.control.readiness()`.
   */
  readiness(companyId?: string): Promise<Readiness>
  /** Stops the server and closes the store; nothing is left running. */
  close(): Promise<void>
}

export const credential = (clientId: string, clientSecret: string): Credential => ({
  clientId,
  clientSecret,
  authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
})

export const DEFAULT_CREDENTIALS = {
  main: credential('sandbox-client', 'sandbox-secret'),
  noProvider: credential('no-provider', 'no-provider-secret'),
  chargesOnly: credential('charges-only', 'charges-only-secret'),
  inactive: credential('inactive', 'inactive-secret'),
  production: credential('production-client', 'production-secret'),
  emptyBalance: credential('empty-balance', 'empty-balance-secret'),
}
