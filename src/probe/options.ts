// The probe's options and their command-line form (commander). The `pix-sandbox` CLI mounts
// probeCommand() as its `probe` subcommand; `npm run probe` uses it alone.
import { Command, InvalidArgumentError } from 'commander'

export interface ProbeOptions {
  target: string
  clientId?: string
  clientSecret?: string
  /** A scenario name (in the package's folder) or a file; default `default`. */
  scenario?: string
  createCharges: number
  transfers: boolean
  largeBody: boolean
  /** Requests a second to the target, at most. */
  rate: number
  timeoutMs: number
  insecure: boolean
  json?: string
  writeScenario?: string
  failOnDifference: boolean
}

const count = (max: number) => (v: string) => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new InvalidArgumentError(`must be a whole number from 0 to ${max}`)
  return n
}
const positive = (v: string) => {
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a number above 0')
  return n
}

/** The `probe` command; `action` receives the parsed options. */
export function probeCommand(
  action: (o: ProbeOptions) => Promise<void> | void,
  env: NodeJS.ProcessEnv = process.env,
): Command {
  return new Command('probe')
    .description(
      'compare the sandbox with a real PIX hub service (e.g. staging) and report where they differ',
    )
    .argument('<target-base-url>', 'the target base_url, e.g. https://staging.example.com/api/v1')
    .option('--client-id <id>', 'the target client_id (or PIX_CLIENT_ID)')
    .option(
      '--client-secret <secret>',
      'the target client_secret (better: PIX_CLIENT_SECRET, kept out of the shell history)',
    )
    .option('--scenario <name-or-file>', 'the sandbox scenario to compare (default: default)')
    .option(
      '--create-charges <n>',
      'create at most n real charges of 1.00 on the target (1: shapes, TTL, zone; 2: also payload reuse)',
      count(10),
      0,
    )
    .option(
      '--transfers',
      'send a transfer above any balance (no money moves) to read the insufficient-balance answer',
      false,
    )
    .option('--large-body', 'send a body over 1 MiB to read the 413', false)
    .option('--rate <n>', 'requests per second to the target, at most', positive, 5)
    .option('--timeout <ms>', 'give up on an answer after this many milliseconds', positive, 10_000)
    .option('--insecure', 'allow a non-https target that is not on a loopback address', false)
    .option(
      '--json <file>',
      'write the whole report, raw exchanges included (credentials redacted)',
    )
    .option(
      '--write-scenario <file>',
      'write a scenario that makes the sandbox answer like the target where a setting can',
    )
    .option('--fail-on-difference', 'exit 1 when any check differs', false)
    .action(async (target: string, o: Record<string, unknown>) => {
      await action({
        target,
        clientId: (o.clientId as string | undefined) ?? env.PIX_CLIENT_ID,
        clientSecret: (o.clientSecret as string | undefined) ?? env.PIX_CLIENT_SECRET,
        scenario: o.scenario as string | undefined,
        createCharges: o.createCharges as number,
        transfers: o.transfers as boolean,
        largeBody: o.largeBody as boolean,
        rate: o.rate as number,
        timeoutMs: o.timeout as number,
        insecure: o.insecure as boolean,
        json: o.json as string | undefined,
        writeScenario: o.writeScenario as string | undefined,
        failOnDifference: o.failOnDifference as boolean,
      })
    })
}

/** Parses `argv` (without node and the script); throws commander's error on bad usage, printing nothing. */
export async function parseProbeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProbeOptions> {
  let parsed: ProbeOptions | undefined
  const cmd = probeCommand((o) => void (parsed = o), env)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
  await cmd.parseAsync(argv, { from: 'user' })
  return parsed!
}

/** Why the target must not be probed, or undefined. A URL holding credentials would be printed. */
export function targetProblem(target: string, insecure: boolean): string | undefined {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return `"${target}" is not a URL; give the base_url, e.g. https://staging.example.com/api/v1`
  }
  if (url.username || url.password)
    return 'the URL holds credentials; give them with --client-id and PIX_CLIENT_SECRET instead'
  if (url.protocol === 'https:') return undefined
  if (url.protocol !== 'http:') return `${url.protocol} is not http(s)`
  if (isLoopback(url.hostname) || insecure) return undefined
  return `refusing plain http to ${url.hostname}: credentials would cross the network unencrypted (use https, or --insecure if you mean it)`
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  return (
    h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1'
  )
}
