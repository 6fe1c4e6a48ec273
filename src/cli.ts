#!/usr/bin/env node
// The `pix-sandbox` command. Without a subcommand it starts the server: flags are turned into the
// environment variables they mirror (a flag wins over its variable), validated by config.ts like
// the environment, and main.ts does the rest, banner included. Usage errors exit 2.
import { readFileSync } from 'node:fs'
import { Command, CommanderError } from 'commander'
import { checkReceiverCommand, execCommand, readinessCommand } from './cli/commands.js'
import { configFromFlags, usageHint, UsageError, withServerFlags } from './cli/flags.js'
import { probeCommand, runProbe } from './probe/index.js'
import { ScenarioError, parseScenarioText } from './scenarios/loader.js'
import { scenarioJsonSchema } from './scenarios/json-schema.js'
import { SCENARIOS_DIR } from './embedded.js'
import { givenByFlags } from './sources.js'
import { VERSION } from './server.js'
import { escapeControls } from './terminal.js'

async function serve(flags: Record<string, string | undefined>): Promise<void> {
  const { given, flagOf } = configFromFlags(flags, process.env)
  // The package's own scenarios: the CLI's default, said as such in the banner.
  if (!process.env.SCENARIOS_DIR && given.SCENARIOS_DIR === undefined)
    given.SCENARIOS_DIR = SCENARIOS_DIR
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

/** Exits with `code` once stdout and stderr are written; a handle left open cannot hold the process. */
function finish(code: number): void {
  process.exitCode = code
  setTimeout(() => process.exit(code), 2000).unref()
}

function program(): Command {
  const root = new Command('pix-sandbox')
    .description(
      'A faithful, stateful sandbox of a PIX collection-and-transfer API.\nEach flag overrides the environment variable it mirrors (in brackets).',
    )
    .version(VERSION, '-v, --version')
    .exitOverride()
    .showHelpAfterError('(run pix-sandbox --help for usage)')
    // The server's flags belong to the command they follow: exec has its own.
    .enablePositionalOptions()
  withServerFlags(root).action((opts) => serve(opts))

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
  root.addCommand(
    probeCommand(async (o) => void (process.exitCode = await runProbe(o))).exitOverride(),
  )
  root.addCommand(execCommand(() => process.argv, finish))
  root.addCommand(readinessCommand(finish))
  root.addCommand(checkReceiverCommand(finish))
  return root
}

const root = program()
root.parseAsync(process.argv).catch((err) => {
  if (err instanceof CommanderError) {
    // Help and version were printed by commander; its other errors are usage errors.
    process.exit(err.exitCode === 0 ? 0 : 2)
  }
  if (err instanceof UsageError) {
    const cmd = root.commands.find((c) => c.name() === err.command)
    process.stderr.write(
      `pix-sandbox: ${err.message}\n${cmd ? usageHint(cmd) : '(run pix-sandbox --help for usage)'}\n`,
    )
    process.exit(2)
  }
  process.stderr.write(`pix-sandbox: ${(err as Error)?.stack ?? err}\n`)
  process.exit(1)
})
