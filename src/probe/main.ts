// `npm run probe -- <target-base-url> [flags]`: the probe alone, until the pix-sandbox CLI
// mounts probeCommand() as its `probe` subcommand.
import { CommanderError } from 'commander'
import { probeCommand } from './options.js'
import { runProbe } from './run.js'

const command = probeCommand(async (options) => {
  process.exitCode = await runProbe(options)
}).exitOverride()

try {
  await command.parseAsync(process.argv.slice(2), { from: 'user' })
} catch (err) {
  // Usage errors were printed by commander; --help exits 0.
  process.exitCode = err instanceof CommanderError && err.exitCode === 0 ? 0 : 2
}
