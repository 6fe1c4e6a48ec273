// The server's flags, shared by `pix-sandbox` (serve) and `pix-sandbox exec`: each mirrors an
// environment variable, and is validated by config.ts like the environment, with the same
// messages naming the flag instead of the variable. A usage error exits 2.
import type { Command } from 'commander'
import { ConfigError, loadConfig, type Config } from '../config.js'

/** Flag (commander's camelCase key) -> the environment variable it mirrors. */
export const SERVER_FLAGS: [flag: string, key: string, variable: string, help: string][] = [
  ['--port <port>', 'port', 'PORT', 'port; 0 picks a free one (default 8080)'],
  ['--host <host>', 'host', 'HOST', 'interface to listen on (default 127.0.0.1)'],
  ['--db <path>', 'db', 'DATABASE', 'SQLite file, or :memory: (default ./data/pix-sandbox.db)'],
  [
    '--scenario <name>',
    'scenario',
    'SCENARIO',
    'scenario loaded into a new store (default default)',
  ],
  [
    '--scenarios-dir <dir>',
    'scenariosDir',
    'SCENARIOS_DIR',
    "where scenarios live (default: the package's own)",
  ],
  [
    '--public-url <url>',
    'publicUrl',
    'PUBLIC_URL',
    'base of the BR Code locations (default http://localhost:<port>)',
  ],
  [
    '--admin-token <token>',
    'adminToken',
    'SANDBOX_ADMIN_TOKEN',
    'control-plane bearer token, 16+ characters (default: generated); prefer the variable, flags show in ps',
  ],
  ['--seed <seed>', 'seed', 'SEED', 'makes ids, generated data and webhook chaos deterministic'],
  [
    '--start-time <instant>',
    'startTime',
    'START_TIME',
    "a new store's clock starts frozen at this ISO 8601 instant, e.g. 2026-03-01T12:00:00Z",
  ],
  [
    '--max-companies <n>',
    'maxCompanies',
    'MAX_COMPANIES',
    'companies the sandbox holds at most, tenants and scenarios alike (default 10000)',
  ],
  [
    '--allowed-hosts <names>',
    'allowedHosts',
    'ALLOWED_HOSTS',
    "Host names answered beyond 127.0.0.1, localhost, [::1] and the public URL's, comma-separated (.example.com: it and its subdomains; *: any)",
  ],
  [
    '--log-level <level>',
    'logLevel',
    'LOG_LEVEL',
    'debug, info, warn, error or silent (default info)',
  ],
]

/** Bad flags or arguments: printed with a pointer to --help (of `command`, a subcommand's name), exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message)
  }
}

/** What a usage error ends with: the command's usage line, and where the rest is. */
export function usageHint(cmd: Command): string {
  return `Usage: pix-sandbox ${cmd.name()} ${cmd.usage()}\n(run pix-sandbox ${cmd.name()} --help for every flag)`
}

/** Adds the server flags to a command, each naming its variable; `help` may say it otherwise (exec's flags read no variable). */
export function withServerFlags(
  cmd: Command,
  help: (variable: string, text: string) => string = (v, t) => `${t} [${v}]`,
): Command {
  for (const [flag, , variable, text] of SERVER_FLAGS) cmd.option(flag, help(variable, text))
  return cmd
}

export interface FromFlags {
  config: Config
  /** The variables the flags gave, and the flag that gave each. */
  given: Record<string, string>
  flagOf: Record<string, string>
}

/** The configuration from `env` with the flags given on top; a UsageError names the flag that was wrong. */
export function configFromFlags(
  flags: Record<string, unknown>,
  env: Record<string, string | undefined>,
  command?: string,
): FromFlags {
  const given: Record<string, string> = {}
  const flagOf: Record<string, string> = {}
  for (const [flag, key, variable] of SERVER_FLAGS) {
    if (flags[key] === undefined) continue
    given[variable] = String(flags[key])
    flagOf[variable] = flag.split(' ')[0]!
  }
  try {
    return { config: loadConfig({ ...env, ...given }), given, flagOf }
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    let message = err.message
    for (const [flag, , variable] of SERVER_FLAGS) {
      if (variable in given)
        message = message.replaceAll(`  ${variable}:`, `  ${flag.split(' ')[0]}:`)
    }
    throw new UsageError(message, command)
  }
}
