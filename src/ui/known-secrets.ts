// Secrets are stored hashed, so the dashboard cannot show them back. But the scenario files
// hold the secrets of the credentials they declare: for the admin, the overview shows a secret
// when the scenario file in force (or the start one) has it and it still matches the stored hash.
import { timingSafeEqual } from 'node:crypto'
import type { HttpDeps } from '../http/env.js'
import { hashSecret } from '../operations/authenticate.js'
import { readScenario } from '../scenarios/loader.js'
import { NO_HASH } from '../store/identity.js'

export function knownSecrets(deps: HttpDeps): () => Map<string, string> {
  const { store } = deps.sandbox
  let cached: { key: string; secrets: Map<string, string> } | undefined
  return () => {
    const names = [
      ...new Set(
        [store.setup.meta.get<string>('scenario'), deps.startScenario].filter(
          (n): n is string => !!n,
        ),
      ),
    ]
    const key = `${names.join(',')}#${store.identity.version()}`
    if (cached?.key === key) return cached.secrets
    const secrets = new Map<string, string>()
    for (const name of names) {
      let scenario: ReturnType<typeof readScenario>
      try {
        scenario = readScenario(deps.scenariosDir, name)
      } catch {
        continue // a scenario applied as a document, or a file since removed: nothing to show
      }
      for (const company of scenario.companies) {
        for (const user of company.users) {
          for (const cr of user.credentials) {
            const stored = store.identity.credentialCheck(cr.client_id, NO_HASH)
            if (stored.known && timingSafeEqual(stored.secretHash, hashSecret(cr.client_secret)))
              secrets.set(cr.client_id, cr.client_secret)
          }
        }
      }
    }
    cached = { key, secrets }
    return secrets
  }
}
