// The sandbox the target is compared with: started in-process on a loopback port with the
// scenario in force (a name in the package's scenarios folder, or a file), in memory.
import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../config.js'
import { silentLog } from '../log.js'
import { readScenario } from '../scenarios/loader.js'
import type { Scenario } from '../scenarios/schema.js'
import { startSandbox, type RunningSandbox } from '../server.js'

export interface Reference {
  running: RunningSandbox
  scenario: Scenario
  /** The scenario file's text, which --write-scenario edits. */
  scenarioText: string
  scenarioLabel: string
  clientId: string
  clientSecret: string
}

/** The package's scenarios folder, from the sources (src/probe) or a bundle (dist). */
export function packageScenariosDir(): string {
  const candidates = ['../../scenarios', '../scenarios'].map((p) =>
    fileURLToPath(new URL(p, import.meta.url)),
  )
  return candidates.find((d) => existsSync(join(d, 'default.yaml'))) ?? candidates[0]!
}

export function locateScenario(scenario: string | undefined): {
  dir: string
  name: string
  file: string
} {
  const value = scenario ?? 'default'
  const isFile = /[\\/]/.test(value) || ['.yaml', '.yml', '.json'].includes(extname(value))
  const dir = isFile ? dirname(resolve(value)) : packageScenariosDir()
  const name = isFile ? basename(value, extname(value)) : value
  const file = isFile
    ? resolve(value)
    : (['.yaml', '.yml', '.json'].map((e) => join(dir, name + e)).find(existsSync) ??
      join(dir, `${name}.yaml`))
  return { dir, name, file }
}

/** The first active company's user holding both Providers and permissions, with a sandbox key. */
export function probeCredentials(
  s: Scenario,
): { clientId: string; clientSecret: string } | undefined {
  for (const company of s.companies.filter((c) => c.api_active)) {
    for (const user of company.users) {
      const both =
        user.permissions.includes('charge') &&
        user.permissions.includes('transfer') &&
        !!user.providers.in?.operations.includes('charge') &&
        !!user.providers.out?.operations.includes('transfer')
      const key = user.credentials.find((k) => k.environment === 'sandbox' && !k.revoked)
      if (both && key) return { clientId: key.client_id, clientSecret: key.client_secret }
    }
  }
  return undefined
}

export async function startReference(scenario: string | undefined): Promise<Reference> {
  const { dir, name, file } = locateScenario(scenario)
  const parsed = readScenario(dir, name)
  const creds = probeCredentials(parsed)
  if (!creds)
    throw new Error(
      `scenario ${file} has no active company whose user has both Providers and a sandbox credential`,
    )
  const config = loadConfig({
    DATABASE: ':memory:',
    PORT: '0',
    HOST: '127.0.0.1',
    SCENARIO: name,
    SCENARIOS_DIR: dir,
    LOG_LEVEL: 'silent',
  })
  const running = await startSandbox(config, { log: silentLog })
  return {
    running,
    scenario: parsed,
    scenarioText: readFileSync(file, 'utf8'),
    scenarioLabel: scenario ?? 'default',
    ...creds,
  }
}
