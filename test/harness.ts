// A fresh sandbox per test: an in-memory store, the default scenario, a real HTTP server on an
// ephemeral port, in the test's own process. Requests go over real HTTP, as an integrator's would;
// unlike an integrator, tests also read the store directly and move a manual clock by hand.
import { fileURLToPath } from 'node:url'
import { createManualClock, type Clock } from '../src/clock.js'
import { loadConfig, type Config } from '../src/config.js'
import type { ServerLimits } from '../src/http/server-limits.js'
import { silentLog } from '../src/log.js'
import { applyScenario } from '../src/operations/apply-scenario.js'
import { validateScenario } from '../src/scenarios/loader.js'
import { startSandbox, type RunningSandbox } from '../src/server.js'
import { conformanceOf } from './conformance.js'

export const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios', import.meta.url))
/** 2026-03-01T12:00:00Z: a fixed start for tests that read the clock. */
export const T0 = Date.UTC(2026, 2, 1, 12, 0, 0) * 1000

export const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`

/** The default scenario's credentials (README.md#default-credentials). */
export const AUTH = {
  main: basic('sandbox-client', 'sandbox-secret'),
  noProvider: basic('no-provider', 'no-provider-secret'),
  chargesOnly: basic('charges-only', 'charges-only-secret'),
  inactive: basic('inactive', 'inactive-secret'),
  production: basic('production-client', 'production-secret'),
  emptyBalance: basic('empty-balance', 'empty-balance-secret'),
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  body: any
}

export interface RequestOptions {
  auth?: string
  json?: unknown
  body?: string | Uint8Array
  headers?: Record<string, string>
}

export interface TestSandbox extends RunningSandbox {
  clock: Clock & { set(us: number): void }
  request(method: string, path: string, opts?: RequestOptions): Promise<Reply>
  /** Applies a scenario document (e.g. settings) on top of the default one. */
  apply(document: unknown): void
  /** A control-plane call with the admin token. */
  admin(method: string, path: string, json?: unknown): Promise<Reply>
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ SCENARIOS_DIR, DATABASE: ':memory:', PORT: '0', LOG_LEVEL: 'silent' }),
    ...overrides,
  }
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<Reply> {
  // A connection per request: fetch reused a keep-alive connection the server was closing after
  // its 5 s idle time, and on a loaded machine, where the client's own idle timer fires late, the
  // request met a reset (`fetch failed`, ECONNRESET or "other side closed", seen at a load of 30).
  const headers: Record<string, string> = { connection: 'close', ...opts.headers }
  if (opts.auth) headers.authorization = opts.auth
  let body = opts.body
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json)
    headers['content-type'] ??= 'application/json'
  }
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: body as string | undefined,
    redirect: 'manual',
  })
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    parsed = undefined
  }
  if (method !== 'HEAD' && isControlApi(path)) {
    // The path as sent: fetch resolves dot segments (`/x/..`).
    const sent = new URL(baseUrl + path).pathname
    const problems = (await conformanceOf(baseUrl)).problems(
      method,
      sent.slice(CONTROL.length),
      res.status,
      parsed,
    )
    if (problems.length)
      throw new Error(`The answer does not match /_sandbox/openapi.json:\n${problems.join('\n')}`)
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

const CONTROL = '/_sandbox'
/** Paths of the control plane's JSON API (not its dashboard, document or reference page). */
const isControlApi = (path: string) =>
  path.startsWith(`${CONTROL}/`) && !/^\/_sandbox\/(ui|openapi\.json|docs)(\/|\?|$)/.test(path)

export async function startTestSandbox(
  overrides: Partial<Config> = {},
  opts: { limits?: Partial<ServerLimits>; slowReceiverMs?: number } = {},
): Promise<TestSandbox> {
  const clock = createManualClock(T0)
  const running = await startSandbox(testConfig(overrides), {
    log: silentLog,
    clock,
    limits: opts.limits,
    slowReceiverMs: opts.slowReceiverMs,
  })
  return {
    ...running,
    clock,
    request: (method, path, opts) => request(running.url, method, path, opts),
    apply: (document) => applyScenario(running.sandbox, validateScenario(document, 'test'), 'test'),
    admin: (method, path, json) =>
      request(running.url, method, `/_sandbox${path}`, {
        auth: `Bearer ${running.adminToken}`,
        json,
      }),
  }
}

/** A scenario company with one user holding both Providers and one credential. */
export function tenantDoc(
  id: string,
  opts: { balance?: number; permissions?: string[]; revoked?: boolean; apiActive?: boolean } = {},
) {
  return {
    id,
    name: `${id} Ltda`,
    api_active: opts.apiActive ?? true,
    users: [
      {
        id: `${id}-user`,
        balance: opts.balance ?? 0,
        ...(opts.permissions && { permissions: opts.permissions }),
        providers: {
          in: { name: 'B', operations: ['charge'] },
          out: { name: 'B', operations: ['transfer'] },
        },
        credentials: [
          { client_id: id, client_secret: `${id}-secret`, revoked: opts.revoked ?? false },
        ],
      },
    ],
  }
}

/** Row counts of the tables a use case writes to, for tests that count what was created. */
export function rowCounts(s: RunningSandbox): Record<string, number> {
  const db = s.sandbox.store.db
  const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number
  return Object.fromEntries(
    ['charges', 'transfers', 'ledger_entries', 'events'].map((t) => [t, count(t)]),
  )
}

/**
 * Everything a refused request must leave as it was: every row of every table (found in the
 * schema, so a table added later is covered too), the settings and rules as the store serves
 * them, and the virtual clock.
 */
export function storeSnapshot(s: RunningSandbox): Record<string, unknown> {
  const { store, clock } = s.sandbox
  const tables = store.db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .pluck()
    .all() as string[]
  return {
    tables: Object.fromEntries(
      tables.map((t) => [t, store.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]),
    ),
    settings: structuredClone(store.setup.settings()),
    rules: structuredClone(store.setup.rules()),
    clock: { ...clock.state(), now: clock.now() },
  }
}

/** The dashboard's session cookie (`name=value`) of the admin, signed in with the token. */
export async function dashboardCookie(s: RunningSandbox): Promise<string> {
  const signIn = await fetch(`${s.url}/_sandbox/ui/sign-in`, {
    method: 'POST',
    body: new URLSearchParams({ token: s.adminToken }),
    redirect: 'manual',
    headers: { origin: s.url },
  })
  return signIn.headers.get('set-cookie')!.split(';')[0]!
}
