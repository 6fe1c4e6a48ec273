// The package's entry: `import { startSandbox, connectSandbox } from 'pix-sandbox'`. Its types
// are published from public.ts; the assignments below fail to compile if the two disagree.
import { createControl } from './client/control.js'
import { SCENARIOS_DIR as scenariosDir, startSandbox as startEmbedded } from './embedded.js'
import type * as Public from './public.js'

export { DEFAULT_CREDENTIALS } from './client/types.js'
export { SandboxRequestError } from './client/control.js'
export type {
  AdminOnly,
  CompanyControl,
  Control,
  ControlPaths,
  Credential,
  Delivery,
  DeliveryMatch,
  LogLevel,
  Readiness,
  Sandbox,
  Schemas,
  Settings,
  StartOptions,
  SubscribeOptions,
  Tenant,
  TenantOptions,
  Webhook,
  WebhookEvent,
} from './public.js'

export const startSandbox: typeof Public.startSandbox = startEmbedded
export const connectSandbox: typeof Public.connectSandbox = (url, adminToken) =>
  createControl(url, `Bearer ${adminToken}`)
export const SCENARIOS_DIR: typeof Public.SCENARIOS_DIR = scenariosDir
