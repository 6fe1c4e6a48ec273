// Builds a running sandbox from a configuration: store, scenario, app, HTTP server, ticker.
// main.ts and the tests both start servers through here.
import { randomBytes } from 'node:crypto'
import type { Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { createApp } from './app.js'
import { createClock, startState, type Clock } from './clock.js'
import { locationBase, publicUrlFor, type Config } from './config.js'
import { createFakes } from './fakes.js'
import { createIds, seedForStart } from './ids.js'
import { createLog, type Log } from './log.js'
import { AppError } from './domain/errors.js'
import { applyScenario } from './operations/apply-scenario.js'
import { createAuthenticator, keyOwner } from './operations/authenticate.js'
import type { Context } from './operations/context.js'
import { runDue } from './operations/run-due.js'
import { createWebhookWorker } from './webhooks/worker.js'
import { admit } from './http/admission.js'
import { drainable, QUIET_MS, SIGNAL_QUIET_MS } from './http/drain.js'
import { guardHosts, hostAllowance } from './http/host-guard.js'
import { SERVER_LIMITS, serverOptions, type ServerLimits } from './http/server-limits.js'
import { uvicornLikeServer } from './http/uvicorn/server.js'
import { createRedactor } from './http/redact.js'
import { createRequestJournal } from './http/request-journal.js'
import { createReadiness } from './readiness/recorder.js'
import { createLocationSigner } from './pix/location.js'
import { readScenario } from './scenarios/loader.js'
import { openStore, StoreTooNew } from './store/index.js'
import { StoreInUse, StoreLinked } from './store/lock.js'
import { isUnwritable, StoreUnavailable } from './store/write-health.js'
import { VERSION } from './version.js'

export { VERSION }

const TICK_MS = 250
/**
 * Shutdown: how long answers in progress may take before their connections are cut, and how
 * long webhook sends under way then get; together within the 10 s a `docker stop` waits.
 */
const DRAIN_GRACE_MS = 6000
const WEBHOOK_GRACE_MS = 3000

/** A start-up failure whose message says what to do; printed without a stack trace. */
export class StartupError extends Error {}

export interface RunningSandbox {
  url: string
  publicUrl: string
  port: number
  adminToken: string
  adminTokenGenerated: boolean
  scenarioLoaded: string | null
  sandbox: Context
  log: Log
  close(opts?: CloseOptions): Promise<void>
}

export interface CloseOptions {
  /** Stopping on a signal: clients may still be sending, so idle connections get longer to send again (http/drain.ts). */
  signal?: boolean
}

export async function startSandbox(
  config: Config,
  opts: {
    log?: Log
    clock?: Clock
    limits?: Partial<ServerLimits>
    /** The receiver_slow threshold (readiness/slow-receiver.ts); tests lower it. */
    slowReceiverMs?: number
  } = {},
): Promise<RunningSandbox> {
  const log = opts.log ?? createLog(config.logLevel)
  const limits = { ...SERVER_LIMITS, ...opts.limits }
  let store: ReturnType<typeof openStore>
  try {
    store = openStore(config.database, { seed: config.seed })
  } catch (err) {
    if (err instanceof StoreInUse || err instanceof StoreLinked) throw new StartupError(err.message)
    if (err instanceof StoreTooNew)
      throw new StartupError(
        `the store ${config.database} cannot be opened: ${err.message}. ` +
          'Start that version of pix-sandbox (or a newer one) on it, or choose another file; nothing was changed in it',
      )
    throw new StartupError(
      `cannot open the store at ${config.database}: ${(err as Error).message}. ` +
        // Worded without a setting's name: DATABASE, --db and the database option all lead here.
        'Check that its folder exists or can be created, and that this user may write there, or choose another path.',
    )
  }
  // Once when writes start failing, once when they work again: not once per refused request.
  store.onWriteHealth = (failure) =>
    failure
      ? log.error(
          'the store cannot write (is the disk full?): writes answer 503 until it can; reads go on',
          { database: config.database, reason: failure.reason },
        )
      : log.info('the store writes again', { database: config.database })
  let sandbox: Context
  let scenarioLoaded: string | null = null
  try {
    const fresh = store.isEmpty()
    // START_TIME is where a fresh store's clock starts, and where reset takes it back; a store
    // that holds state keeps its own clock.
    const start = startState(config.startTime)
    const clock =
      opts.clock ?? createClock(undefined, fresh ? start : store.setup.meta.get('clock'), start)
    if (config.startTime !== undefined && !fresh) {
      log.warn(
        'START_TIME ignored: the store already holds state, and its clock goes on (reset returns to START_TIME)',
      )
    }
    // Each start of a store draws from the seed's next sequence, so a restarted sandbox never
    // draws an id it drew before (ids.ts); counted once per start, not per write.
    const starts = store.tx(() => {
      if (fresh && clock.frozen()) store.setup.meta.set('clock', clock.state())
      return store.countStart()
    })
    const seed = config.seed === undefined ? undefined : seedForStart(config.seed, starts)
    // The location base is known once the port is bound (PORT=0 picks one); set below.
    sandbox = {
      store,
      clock,
      ids: createIds(seed),
      locationBase: '',
      fakes: createFakes(seed),
      maxCompanies: config.maxCompanies,
    }
    if (fresh) {
      applyScenario(
        sandbox,
        readScenario(config.scenariosDir, config.scenario),
        config.scenario,
        true,
      )
      scenarioLoaded = config.scenario
    }
    // Committed before the server says it listens (a full disk stops the start here).
    await store.pendingCommit()
  } catch (err) {
    await store.close()
    if (
      err instanceof StoreUnavailable ||
      (typeof (err as { code?: unknown }).code === 'string' &&
        (err as { code: string }).code.startsWith('SQLITE_'))
    ) {
      throw new StartupError(
        `cannot write the store at ${config.database}: ${(err as Error).message}`,
      )
    }
    // The start scenario refused (more companies than MAX_COMPANIES): said as a start-up error.
    if (err instanceof AppError)
      throw new StartupError(
        `the scenario ${config.scenario} cannot be loaded: ${err.detail ?? err.code}`,
      )
    throw err
  }
  const { clock } = sandbox
  const adminToken = config.adminToken ?? randomBytes(24).toString('base64url')
  // Examples of findings pass the journal's redaction, the admin token included.
  const redactor = createRedactor([adminToken])
  const readiness = createReadiness({
    store,
    clock,
    persistent: config.database !== ':memory:',
    redact: (text) => redactor.body(text) ?? '',
    keyOwner: keyOwner(store),
    slowReceiverMs: opts.slowReceiverMs,
    onError: (err) => log.error('readiness could not be stored', { error: String(err) }),
  })
  sandbox.readiness = readiness

  const webhooks = createWebhookWorker({
    store,
    clock,
    log,
    seed: config.seed,
    userAgent: `pix-sandbox/${VERSION}`,
    allowedHosts: config.webhookAllowedHosts,
    // Read at each call: set only while a dashboard listens, so with none an attempt pays one check.
    onRecorded: (d, sub, disabled) =>
      sandbox.onChange?.({
        kind: 'delivery',
        id: d.id,
        companyId: d.companyId,
        webhook: disabled ? { id: sub.id, companyId: sub.companyId } : null,
      }),
    observe: (seen) => readiness.attempt(seen),
  })
  sandbox.onWebhookQueued = () => webhooks.kick()

  let publicUrl = config.publicUrl ?? ''
  const stopping = new AbortController()
  const signer = createLocationSigner(
    store.setup.meta.get('signing_key'),
    (jwk) => store.setup.meta.set('signing_key', jwk),
    config.seed,
  )
  const app = createApp(
    {
      sandbox,
      authenticate: createAuthenticator(store),
      log,
      version: VERSION,
      environment: 'sandbox',
      adminToken,
      scenariosDir: config.scenariosDir,
      startScenario: config.scenario,
      webhooks,
      journal: createRequestJournal([adminToken]),
      webhookAllowedHosts: config.webhookAllowedHosts,
      publicUrl: () => publicUrl,
      stopping: stopping.signal,
    },
    signer,
  )

  const server: ServerType = await new Promise<ServerType>((resolve, reject) => {
    const s = serve(
      {
        fetch: guardHosts(app.fetch, hostAllowance(config)),
        port: config.port,
        hostname: config.host,
        createServer: uvicornLikeServer,
        serverOptions: serverOptions(limits),
      },
      () => resolve(s),
    )
    s.once('error', reject)
  }).catch(async (err: NodeJS.ErrnoException) => {
    readiness.close()
    await store.close()
    const reason =
      err.code === 'EADDRINUSE'
        ? 'is already in use: choose another port, or 0 for any free one'
        : `cannot be listened on: ${err.message}`
    throw new StartupError(`${config.host}:${config.port} ${reason}`)
  })
  const port = (server.address() as AddressInfo).port
  const draining = drainable(
    server as HttpServer,
    admit(server as HttpServer, limits.maxConnections),
  )
  publicUrl = publicUrlFor(config, port)
  sandbox.locationBase = locationBase(publicUrl)

  const ticker = setInterval(() => {
    try {
      runDue(
        sandbox,
        clock.now(),
        (id, err) => isUnwritable(err) || log.error('due work failed', { id, error: String(err) }),
      )
      void webhooks.deliverDue()
    } catch (err) {
      if (!isUnwritable(err)) log.error('ticker failed', { error: String(err) })
    }
  }, TICK_MS)
  ticker.unref()

  let closing: Promise<void> | undefined
  const close = (opts: CloseOptions = {}) =>
    (closing ??= new Promise<void>((resolve) => {
      clearInterval(ticker)
      stopping.abort()
      // Every request that has reached the server is answered (http/drain.ts).
      draining.drain(DRAIN_GRACE_MS, opts.signal ? SIGNAL_QUIET_MS : QUIET_MS, () => {
        // Sends under way get a few seconds; unsent deliveries stay queued for the next start.
        const settled = Promise.race([
          webhooks.idle(),
          new Promise((r) => setTimeout(r, WEBHOOK_GRACE_MS).unref()),
        ])
        // What readiness has not stored yet is stored before the store closes. A step that
        // fails is said, and close() still ends: a caller awaiting it must not wait for ever.
        settled
          .then(() => (readiness.close(), store.close()))
          .catch((err) => log.error('closing failed', { error: String(err) }))
          .then(resolve)
      })
    }))

  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    publicUrl,
    port,
    adminToken,
    adminTokenGenerated: config.adminToken === undefined,
    scenarioLoaded,
    sandbox,
    log,
    close,
  }
}
