// The readiness subcommands of `pix-sandbox` (commander): exec and readiness. Each resolves with
// the code to exit with, which cli.ts sets; bad flags are usage errors (exit 2).
import { Command, InvalidArgumentError, Option } from 'commander'
import { SCENARIOS_DIR } from '../embedded.js'
import { FAIL_ON, type FailOn } from '../readiness/gate.js'
import { isValidSecret } from '../webhooks/sign.js'
import { configFromFlags, usageHint, UsageError, withServerFlags } from './flags.js'

const percent = (v: string) => {
  const n = Number(v)
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError('must be a number from 0 to 100')
  return n
}
const gateOptions = (cmd: Command, failOnDefault: FailOn) =>
  cmd
    .addOption(
      new Option(
        '--min-coverage <pct>',
        'exit 1 when fewer behaviours than this percent (0-100) were met',
      ).argParser(percent),
    )
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding is at least this serious')
        .choices(FAIL_ON)
        .default(failOnDefault),
    )

// What exec's sandbox is unless a flag says otherwise; the environment's PORT, DATABASE... are
// for a server of your own and are not read.
const EXEC_DEFAULTS: Record<string, string> = {
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE: ':memory:',
  LOG_LEVEL: 'silent',
  SCENARIO: 'default',
  SCENARIOS_DIR,
}
const EXEC_HELP: Record<string, string> = {
  SCENARIOS_DIR: "where scenarios live (default: the package's own)",
  SANDBOX_ADMIN_TOKEN:
    'control-plane bearer token, 16+ characters (default: generated); COMMAND gets it as PIX_SANDBOX_ADMIN_TOKEN',
}
const execHelp = (variable: string, text: string) =>
  EXEC_HELP[variable] ??
  (variable in EXEC_DEFAULTS
    ? `${text.replace(/ \(default[^)]*\)$/, '')} (default ${EXEC_DEFAULTS[variable]})`
    : text)

/** `exec`; `rawArgs` is the whole command line, to find the `--` that must come before COMMAND. */
export function execCommand(rawArgs: () => string[], done: (code: number) => void): Command {
  const cmd = withServerFlags(new Command('exec'), execHelp)
    .description(
      'run COMMAND (a test suite in any language) against a fresh sandbox, then print its readiness summary to stderr.\n' +
        'COMMAND gets PIX_SANDBOX_URL, PIX_BASE_URL, PIX_SANDBOX_ADMIN_TOKEN, PIX_CLIENT_ID and PIX_CLIENT_SECRET, and\n' +
        'PIX_SANDBOX_EXEC_ID, which marks what it starts: everything still running at the end is stopped.\n' +
        "Exit code: COMMAND's if it failed; otherwise 1 if coverage is under --min-coverage or a finding is at or above --fail-on; otherwise 0.",
    )
    .usage(
      '[server flags] [--report FILE.json] [--junit FILE.xml] [--min-coverage PCT] [--fail-on error|warning|never] -- COMMAND [ARGS...]',
    )
    .option('--report <file>', 'write the readiness report as JSON')
    .option('--junit <file>', 'write a JUnit XML file: one test case per behaviour and per finding')
    .argument('[command...]', 'the command to run, after --')
  gateOptions(cmd, 'error')
  return cmd
    .exitOverride()
    .showHelpAfterError(usageHint(cmd))
    .action(async (operands: string[], opts: Record<string, unknown>) => {
      const args = rawArgs()
      const dashes = args.indexOf('--', args.indexOf('exec') + 1)
      const command = dashes < 0 ? [] : args.slice(dashes + 1)
      if (dashes < 0)
        throw new UsageError(
          operands.length
            ? `put -- before COMMAND: pix-sandbox exec [flags] -- ${operands.join(' ')}`
            : 'exec needs -- COMMAND [ARGS...]',
          'exec',
        )
      if (operands.length > command.length)
        throw new UsageError(`unexpected ${operands[0]} before --`, 'exec')
      if (command.length === 0) throw new UsageError('exec needs a COMMAND after --', 'exec')
      const { config } = configFromFlags(opts, EXEC_DEFAULTS, 'exec')
      const { runExec } = await import('./exec.js')
      done(
        await runExec({
          config,
          command,
          report: opts.report as string | undefined,
          junit: opts.junit as string | undefined,
          gate: {
            minCoverage: opts.minCoverage as number | undefined,
            failOn: opts.failOn as FailOn,
          },
        }),
      )
    })
}

export function readinessCommand(
  done: (code: number) => void,
  env: NodeJS.ProcessEnv = process.env,
): Command {
  const cmd = new Command('readiness')
    .description(
      'print the readiness report of a sandbox already running (Docker, a CI service); exits 1 when URL is not a sandbox or the gate fails',
    )
    .requiredOption(
      '--url <url>',
      'the sandbox, e.g. http://127.0.0.1:8080 (its /api/v1 base URL works too)',
    )
    .option(
      '--admin-token <token>',
      'its admin token (default: SANDBOX_ADMIN_TOKEN or PIX_SANDBOX_ADMIN_TOKEN; flags show in ps)',
    )
    .option('--company-id <id>', "one company's report (default: every company's)")
    .option('--json', 'print the report as JSON', false)
  gateOptions(cmd, 'never')
  return cmd
    .exitOverride()
    .showHelpAfterError(usageHint(cmd))
    .action(async (opts: Record<string, unknown>) => {
      const adminToken =
        (opts.adminToken as string | undefined) ??
        env.SANDBOX_ADMIN_TOKEN ??
        env.PIX_SANDBOX_ADMIN_TOKEN
      if (!adminToken)
        throw new UsageError(
          'readiness needs the admin token: --admin-token, or SANDBOX_ADMIN_TOKEN in the environment',
          'readiness',
        )
      if (!/^https?:\/\//.test(opts.url as string))
        throw new UsageError(
          `--url must be an http(s) URL, not ${JSON.stringify(opts.url)}`,
          'readiness',
        )
      const { runReadiness } = await import('./readiness.js')
      done(
        await runReadiness({
          url: opts.url as string,
          adminToken,
          companyId: opts.companyId as string | undefined,
          json: opts.json as boolean,
          gate: {
            minCoverage: opts.minCoverage as number | undefined,
            failOn: opts.failOn as FailOn,
          },
        }),
      )
    })
}

export function checkReceiverCommand(
  done: (code: number) => void,
  env: NodeJS.ProcessEnv = process.env,
): Command {
  const cmd = new Command('check-receiver')
    .description(
      'check a Standard Webhooks receiver, without a sandbox: a correctly signed delivery and the same webhook-id again (2xx), a bad signature and a ' +
        'timestamp 10 minutes old (4xx), an unknown event type (2xx), each within 5 s; redirects are not followed. Exit 0 when all pass, 1 otherwise',
    )
    .argument('<url>', 'the receiver, e.g. http://127.0.0.1:3000/webhooks')
    .option('--secret <whsec>', 'the secret it verifies with (default: PIX_SANDBOX_WEBHOOK_SECRET)')
    .option('--json', 'print the result as JSON', false)
  return cmd
    .exitOverride()
    .showHelpAfterError(usageHint(cmd))
    .action(async (url: string, opts: Record<string, unknown>) => {
      const secret = (opts.secret as string | undefined) ?? env.PIX_SANDBOX_WEBHOOK_SECRET
      if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url))
        throw new UsageError(
          `URL must be an http(s) URL, not ${JSON.stringify(url)}`,
          'check-receiver',
        )
      if (!secret)
        throw new UsageError(
          'check-receiver needs --secret whsec_... (the secret the receiver verifies with)',
          'check-receiver',
        )
      if (!isValidSecret(secret))
        throw new UsageError(
          '--secret must be whsec_ followed by at least 16 bytes in base64',
          'check-receiver',
        )
      const { runCheckReceiver } = await import('./check-receiver.js')
      done(await runCheckReceiver({ url, secret, json: opts.json as boolean }))
    })
}
