// Entry point: read the configuration, start the sandbox, print the banner, stop cleanly.
import { setFlagsFromString } from 'node:v8'
import { addressFor, ConfigError, loadConfig } from './config.js'
import { isoMicros } from './domain/time.js'
import { ScenarioError } from './scenarios/loader.js'
import { startSandbox, StartupError, VERSION } from './server.js'
import { escapeControls } from './terminal.js'
import { webhookExposure } from './webhooks/allowed-hosts.js'

// V8 allocates objects straight into the old generation from allocation sites it has seen
// survive a scavenge. Requests that wait for a group commit survive one now and then, so the
// sites of body parsing and validation got pretenured: under load their garbage filled the old
// generation, which grew the heap by ~30 MB between full collections at no gain in speed
// (docs/DESIGN.md, "Memory"). Set before any request is served.
setFlagsFromString('--no-allocation-site-pretenuring')

async function main(): Promise<void> {
  const config = loadConfig()
  const running = await startSandbox(config)
  // Before the banner: whoever reads it may signal at once, and a signal that comes before its
  // handler ends the process on the spot, without closing the store.
  const stop = (signal: string) => {
    running.log.info(`${signal} received, finishing in-flight requests`)
    running.close().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  const { url } = running
  // One address for everything printed, the README's: http://127.0.0.1:<port> unless PUBLIC_URL says otherwise.
  const address = addressFor(config, running.port)
  const scenario = running.sandbox.store.setup.meta.get<string>('scenario') ?? config.scenario
  const webhooks = webhookExposure(config.host, config.webhookAllowedHosts)
  const lines = [
    `pix-sandbox ${VERSION} listening on ${url}`,
    `  base_url     ${address}/api/v1`,
    `  docs         ${address}/docs`,
    `  health       ${address}/_sandbox/health`,
    `  dashboard    ${address}/_sandbox/ui`,
    `  store        ${config.database}`,
    running.scenarioLoaded
      ? `  scenario     ${running.scenarioLoaded} (loaded into the new store)`
      : `  scenario     ${scenario} (the store already holds state; SCENARIO is applied only to an empty store)`,
    ...(config.startTime === undefined
      ? []
      : [running.scenarioLoaded
          ? `  clock        frozen at ${isoMicros(config.startTime)} (START_TIME; POST /_sandbox/clock/resume lets it run)`
          : `  clock        ${isoMicros(running.sandbox.clock.now())} (START_TIME ignored: the store already holds state)`]),
    `  credentials  sandbox-client:sandbox-secret; every default credential is listed in README.md`,
    running.adminTokenGenerated
      ? `  admin token  ${running.adminToken}  (generated; set SANDBOX_ADMIN_TOKEN to choose it)`
      : `  admin token  from SANDBOX_ADMIN_TOKEN`,
    ...(webhooks ? [`  webhooks     ${webhooks}`] : []),
  ]
  process.stdout.write(lines.join('\n') + '\n')

}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof ScenarioError || err instanceof StartupError) {
    // A scenario's problems quote its file, which may come from elsewhere.
    process.stderr.write(`pix-sandbox: ${escapeControls(err.message, { keepLines: true })}\n`)
  } else {
    process.stderr.write(`pix-sandbox: failed to start: ${(err as Error)?.stack ?? err}\n`)
  }
  process.exit(1)
})
