#!/usr/bin/env node
// The `pix-sandbox` command. Without a subcommand it starts the server: flags are turned into the
// environment variables they mirror (a flag wins over its variable), validated by config.ts like
// the environment, and main.ts does the rest, banner included. Usage errors exit 2.
import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
import { ConfigError, loadConfig } from './config.js'
import { probeCommand, runProbe } from './probe/index.js'
import { ScenarioError, parseScenarioText } from './scenarios/loader.js'
import { scenarioJsonSchema } from './scenarios/json-schema.js'
import { SCENARIOS_DIR } from './embedded.js'
import { givenByFlags } from './sources.js'
import { VERSION } from './server.js'
import { escapeControls } from './terminal.js'

/** Flag (commander's camelCase key) -> the environment variable it mirrors. */
const FLAGS: [flag: string, key: string, variable: string, help: string][] = [
  ['--port <port>', 'port', 'PORT', 'port; 0 picks a free one (default 8080)'],
  ['--host <host>', 'host', 'HOST', 'interface to listen on (default 127.0.0.1)'],
  ['--db <path>', 'db', 'DATABASE', 'SQLite file, or :memory: (default ./data/pix-sandbox.db)'],
  ['--scenario <name>', 'scenario', 'SCENARIO', 'scenario loaded into a new store (default default)'],
  ['--scenarios-dir <dir>', 'scenariosDir', 'SCENARIOS_DIR', "where scenarios live (default: the package's own)"],
  ['--public-url <url>', 'publicUrl', 'PUBLIC_URL', 'base of the BR Code locations (default http://localhost:<port>)'],
  ['--admin-token <token>', 'adminToken', 'SANDBOX_ADMIN_TOKEN', 'control-plane bearer token, 16+ characters (default: generated); prefer the variable, flags show in ps'],
  ['--seed <seed>', 'seed', 'SEED', 'makes ids, generated data and webhook chaos deterministic'],
  ['--start-time <instant>', 'startTime', 'START_TIME', "a new store's clock starts frozen at this ISO 8601 instant, e.g. 2026-03-01T12:00:00Z"],
  ['--max-companies <n>', 'maxCompanies', 'MAX_COMPANIES', 'companies the sandbox holds at most, tenants and scenarios alike (default 10000)'],
  ['--log-level <level>', 'logLevel', 'LOG_LEVEL', 'debug, info, warn, error or silent (default info)'],
]

class UsageError extends Error {}

async function serve(flags: Record<string, string | undefined>): Promise<void> {
  const given: Record<string, string> = {}
  const flagOf: Record<string, string> = {}
  for (const [flag, key, variable] of FLAGS) {
    if (flags[key] === undefined) continue
    given[variable] = flags[key]
    flagOf[variable] = flag.split(' ')[0]!
  }
  const env = { ...process.env, ...given }
  // The package's own scenarios: the CLI's default, said as such in the banner.
  if (!env.SCENARIOS_DIR) env.SCENARIOS_DIR = given.SCENARIOS_DIR = SCENARIOS_DIR
  try {
    loadConfig(env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    // The same messages as for the environment, naming the flag where a flag gave the value.
    let message = err.message
    for (const [flag, , variable] of FLAGS) {
      if (variable in given) message = message.replaceAll(`  ${variable}:`, `  ${flag.split(' ')[0]}:`)
    }
    throw new UsageError(message)
  }
  Object.assign(process.env, given)
  givenByFlags(flagOf)
  await import('./main.js')
}

function check(files: string[]): void {
  let failed = 0
  for (const file of files) {
    try {
      parseScenarioText(readFileSync(file, 'utf8'), file)
      process.stdout.write(`${escapeControls(file)}: ok\n`)
    } catch (err) {
      failed++
      // A problem may quote the file (a key, a value): a file from elsewhere must not command the terminal.
      const problems = err instanceof ScenarioError ? err.problems : [(err as Error).message]
      for (const p of problems) process.stderr.write(`${escapeControls(`${file}: ${p}`)}\n`)
    }
  }
  if (failed) {
    process.stderr.write(`${failed} of ${files.length} file(s) invalid\n`)
    process.exitCode = 1
  }
}

function program(): Command {
  const root = new Command('pix-sandbox')
    .description('A faithful, stateful sandbox of a PIX collection-and-transfer API.\nEach flag overrides the environment variable it mirrors (in brackets).')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run pix-sandbox --help for usage)')
  for (const [flag, , variable, help] of FLAGS) root.option(flag, `${help} [${variable}]`)
  root.action((opts) => serve(opts))

  const scenario = root.command('scenario').description('work with scenario files').exitOverride()
  scenario
    .command('check')
    .description('validate scenario files (YAML or JSON); exits 1 if any is invalid')
    .argument('<file...>', 'scenario files')
    .exitOverride()
    .action((files: string[]) => check(files))
  scenario
    .command('schema')
    .description('print the JSON Schema of scenario files')
    .exitOverride()
    .action(() => void process.stdout.write(JSON.stringify(scenarioJsonSchema(), null, 2) + '\n'))
  root.addCommand(probeCommand(async (o) => void (process.exitCode = await runProbe(o))).exitOverride())
  return root
}

program()
  .parseAsync(process.argv)
  .catch((err) => {
    if (err instanceof CommanderError) {
      // Help and version were printed by commander; its other errors are usage errors.
      process.exit(err.exitCode === 0 ? 0 : 2)
    }
    if (err instanceof UsageError) {
      process.stderr.write(`pix-sandbox: ${err.message}\n(run pix-sandbox --help for usage)\n`)
      process.exit(2)
    }
    process.stderr.write(`pix-sandbox: ${(err as Error)?.stack ?? err}\n`)
    process.exit(1)
  })
