// startSandbox() for test suites: a sandbox in this process, on a free port, in memory, silent,
// with a typed control client. Lives at src/ level so that `../scenarios` points at the
// package's scenarios both from the sources and from the bundle in dist/.
import { fileURLToPath } from 'node:url'
import { createControl } from './client/control.js'
import { credential, DEFAULT_CREDENTIALS, type Sandbox, type StartOptions } from './client/types.js'
import { loadConfig } from './config.js'
import { createLog } from './log.js'
import { applyScenario } from './operations/apply-scenario.js'
import { validateScenario } from './scenarios/loader.js'
import { startSandbox as startServer } from './server.js'

/** The scenarios shipped with the package (`default`, `many-users`, ...). */
export const SCENARIOS_DIR = fileURLToPath(new URL('../scenarios', import.meta.url))

/** Starts a sandbox in this process. Options are validated like the environment of the server. */
export async function startSandbox(options: StartOptions = {}): Promise<Sandbox> {
  const config = loadConfig({
    PORT: String(options.port ?? 0),
    HOST: options.host,
    DATABASE: options.database ?? ':memory:',
    SCENARIO: options.scenario,
    SCENARIOS_DIR: options.scenariosDir ?? SCENARIOS_DIR,
    PUBLIC_URL: options.publicUrl,
    SANDBOX_ADMIN_TOKEN: options.adminToken,
    LOG_LEVEL: options.logLevel ?? 'silent',
    SEED: options.seed,
    START_TIME: options.startTime,
    MAX_COMPANIES: options.maxCompanies === undefined ? undefined : String(options.maxCompanies),
    ALLOWED_HOSTS: options.allowedHosts?.join(','),
  })
  const running = await startServer(config, { log: createLog(config.logLevel) })
  const settings = options.settings && validateScenario({ settings: options.settings }, 'settings')
  try {
    if (settings && running.scenarioLoaded) applyScenario(running.sandbox, settings, 'settings')
  } catch (err) {
    await running.close()
    throw err
  }
  const control = createControl(running.url, `Bearer ${running.adminToken}`)
  const baseUrl = `${running.url}/api/v1`
  return {
    url: running.url,
    baseUrl,
    adminToken: running.adminToken,
    credentials: DEFAULT_CREDENTIALS,
    control,
    tenant: async (opts = {}) => {
      const t = await control.api.POST('/companies', { body: opts })
      if (!t.data) throw new Error(`tenant: ${t.response.status} ${JSON.stringify(t.error)}`)
      const credentials = credential(t.data.client_id, t.data.client_secret)
      return {
        companyId: t.data.company_id,
        userId: t.data.user_id,
        baseUrl,
        authorization: credentials.authorization,
        credentials,
        control: createControl(running.url, credentials.authorization, t.data.user_id),
      }
    },
    reset: async () => {
      await control.reset()
      if (settings) {
        const r = await control.api.POST('/scenarios', {
          body: { document: { settings: options.settings } },
        })
        if (r.error)
          throw new Error(
            `reset: applying settings: ${r.response.status} ${JSON.stringify(r.error)}`,
          )
      }
    },
    readiness: (companyId) => control.readiness(companyId),
    close: running.close,
  }
}
