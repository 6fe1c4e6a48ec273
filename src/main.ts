// Entry point: read the configuration, start the sandbox, print the banner (banner.ts), stop cleanly.
import { setFlagsFromString } from 'node:v8'
import { bannerLines } from './banner.js'
import { ConfigError, loadConfig } from './config.js'
import { ScenarioError } from './scenarios/loader.js'
import { startSandbox, StartupError } from './server.js'
import { escapeControls } from './terminal.js'

// V8 allocates objects straight into the old generation from allocation sites it has seen
// survive a scavenge. Requests that wait for a group commit survive one now and then, so the
// sites of body parsing and validation got pretenured: under load their garbage filled the old
// generation, which grew the heap by ~30 MB between full collections at no gain in speed
// (docs/decisions/2026-11-22-v8-memory-flags.md). Set before any request is served.
setFlagsFromString('--no-allocation-site-pretenuring')

async function main(): Promise<void> {
  const config = loadConfig()
  const running = await startSandbox(config)
  // Before the banner: whoever reads it may signal at once, and a signal that comes before its
  // handler ends the process on the spot, without closing the store.
  const stop = (signal: string) => {
    running.log.info(`${signal} received, finishing in-flight requests`)
    running.close({ signal: true }).then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
  const lines = bannerLines(config, running)
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
