// The start banner: where everything is, the credentials that work in the state in force (the
// first of its scenario that signs in, checked against the store), and where each setting came
// from, so that a start with flags or another scenario never prints what answers 401 there.
import { addressFor, type Config } from './config.js'
import { isoMicros } from './domain/time.js'
import { createAuthenticator } from './operations/authenticate.js'
import { readScenario, scenarioFile } from './scenarios/loader.js'
import type { RunningSandbox } from './server.js'
import { sourceOf } from './sources.js'
import { VERSION } from './server.js'
import { escapeControls } from './terminal.js'
import { webhookExposure } from './webhooks/allowed-hosts.js'

/** The credentials line: the first sandbox credential of the scenario in force that signs in. */
function credentialsLine(config: Config, running: RunningSandbox, scenario: string): string {
  const file = scenarioFile(config.scenariosDir, scenario)
  let declared: { client_id: string; client_secret: string; company: string }[]
  try {
    declared = readScenario(config.scenariosDir, scenario).companies.flatMap((c) =>
      c.users.flatMap((u) =>
        u.credentials
          .filter((cr) => cr.environment === 'sandbox' && !cr.revoked)
          .map((cr) => ({ ...cr, company: c.name })),
      ),
    )
  } catch {
    return `none known: the scenario "${scenario}" cannot be read from ${config.scenariosDir}`
  }
  const authenticate = createAuthenticator(running.sandbox.store)
  const working = declared.filter((cr) => {
    try {
      return authenticate(cr.client_id, cr.client_secret).company.apiActive
    } catch {
      return false
    }
  })
  const first = working[0]
  if (!first) {
    return declared.length === 0
      ? `none: the scenario "${scenario}" declares no credential; create a company at ${addressFor(config, running.port)}/_sandbox/ui or POST /_sandbox/companies`
      : `none of the scenario's work in this store any more (delete ${config.database} for a fresh start)`
  }
  return `${first.client_id}:${first.client_secret} (${first.company}); the scenario's credentials are in ${file}${scenario === 'default' ? ' and README.md' : ''}`
}

/** The scenario line of a store that already held state: a scenario asked for and not loaded is said so, with what to do. */
function keptScenario(config: Config, scenario: string, source: string): string {
  if (source === 'default') return `${scenario}, kept in the store`
  if (config.scenario === scenario) return `${scenario} (${source}), kept in the store`
  return `${scenario}, kept in the store; "${config.scenario}" (${source}) was not loaded, as the store holds state: delete ${config.database} for a fresh start, or apply it with POST /_sandbox/scenarios`
}

export function bannerLines(
  config: Config,
  running: RunningSandbox,
  env: Record<string, string | undefined> = process.env,
): string[] {
  const address = addressFor(config, running.port)
  const from = (variable: string) => sourceOf(variable, env)
  const scenario = running.sandbox.store.setup.meta.get<string>('scenario') ?? config.scenario
  const webhooks = webhookExposure(config.host, config.webhookAllowedHosts)
  const settings = [
    `port ${running.port} (${from('PORT')})`,
    `host ${config.host} (${from('HOST')})`,
    ...(config.publicUrl ? [`public URL ${config.publicUrl} (${from('PUBLIC_URL')})`] : []),
    ...(config.allowedHosts
      ? [`allowed hosts ${config.allowedHosts.join(', ')} (${from('ALLOWED_HOSTS')})`]
      : []),
    `log level ${config.logLevel} (${from('LOG_LEVEL')})`,
    config.seed === undefined ? 'no seed' : `seed ${config.seed} (${from('SEED')})`,
  ]
  return [
    `pix-sandbox ${VERSION} listening on ${running.url}`,
    `  base_url     ${address}/api/v1`,
    `  docs         ${address}/docs`,
    `  health       ${address}/_sandbox/health`,
    `  dashboard    ${address}/_sandbox/ui`,
    `  store        ${config.database} (${from('DATABASE')})`,
    `  settings     ${settings.join(', ')}`,
    running.scenarioLoaded
      ? `  scenario     ${running.scenarioLoaded} (${from('SCENARIO')}), loaded into the new store`
      : `  scenario     ${keptScenario(config, scenario, from('SCENARIO'))}`,
    ...(config.startTime === undefined
      ? []
      : [
          running.scenarioLoaded
            ? `  clock        frozen at ${isoMicros(config.startTime)} (${from('START_TIME')}; POST /_sandbox/clock/resume lets it run)`
            : `  clock        ${isoMicros(running.sandbox.clock.now())} (START_TIME ignored: the store already holds state)`,
        ]),
    // A scenario file's ids and secrets are printed as they are written, control characters escaped.
    `  credentials  ${escapeControls(credentialsLine(config, running, scenario))}`,
    running.adminTokenGenerated
      ? `  admin token  ${running.adminToken}  (generated: set SANDBOX_ADMIN_TOKEN or --admin-token to keep one)`
      : `  admin token  from ${from('SANDBOX_ADMIN_TOKEN')}`,
    ...(webhooks ? [`  webhooks     ${webhooks}`] : []),
  ]
}
