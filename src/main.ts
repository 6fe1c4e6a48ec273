// Entry point: read the configuration, start the sandbox, print the banner, stop cleanly.
import { ConfigError, loadConfig } from './config.js'
import { ScenarioError } from './scenarios/loader.js'
import { startSandbox, StartupError, VERSION } from './server.js'

async function main(): Promise<void> {
  const config = loadConfig()
  const running = await startSandbox(config)
  const { url, publicUrl } = running
  const scenario = running.sandbox.store.setup.meta.get<string>('scenario') ?? config.scenario
  const lines = [
    `pix-sandbox ${VERSION} listening on ${url}`,
    `  base_url     ${publicUrl}/api/v1`,
    `  docs         ${publicUrl}/docs`,
    `  health       ${publicUrl}/_sandbox/health`,
    `  store        ${config.database}`,
    running.scenarioLoaded
      ? `  scenario     ${running.scenarioLoaded} (loaded into the new store)`
      : `  scenario     ${scenario} (the store already holds state; SCENARIO is applied only to an empty store)`,
    `  credentials  sandbox-client:sandbox-secret; every default credential is listed in README.md`,
    running.adminTokenGenerated
      ? `  admin token  ${running.adminToken}  (generated; set SANDBOX_ADMIN_TOKEN to choose it)`
      : `  admin token  from SANDBOX_ADMIN_TOKEN`,
  ]
  process.stdout.write(lines.join('\n') + '\n')

  const stop = (signal: string) => {
    running.log.info(`${signal} received, finishing in-flight requests`)
    running.close().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof ScenarioError || err instanceof StartupError) {
    process.stderr.write(`pix-sandbox: ${err.message}\n`)
  } else {
    process.stderr.write(`pix-sandbox: failed to start: ${(err as Error)?.stack ?? err}\n`)
  }
  process.exit(1)
})
