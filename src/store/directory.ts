// Read-only listings for people (the dashboard): every company with its users, balances,
// Providers, permissions and credential ids (secrets are stored hashed, so none), and the
// inactive keys of the key directory.
import type { Db } from './db.js'

export interface DirectoryCredential {
  clientId: string
  environment: string
  revoked: boolean
}

export interface DirectoryUser {
  id: string
  name: string
  permissions: string[]
  balance: number
  providers: { in: string | null; out: string | null }
  credentials: DirectoryCredential[]
}

export interface DirectoryCompany {
  id: string
  name: string
  apiActive: boolean
  users: DirectoryUser[]
}

const splitList = (s: string | null) => (s ? s.split(',') : [])
const provider = (name: string | null, ops: string | null) => (name === null ? null : `${name} (${splitList(ops).join(', ') || 'no operation'})`)

export function directoryStore(db: Db) {
  const usersStmt = db.prepare(`
    SELECT co.id AS company_id, co.name AS company_name, co.api_active, u.id, u.name, u.permissions, u.balance,
           pin.name AS in_name, pin.operations AS in_ops, pout.name AS out_name, pout.operations AS out_ops
    FROM companies co
    LEFT JOIN users u ON u.company_id = co.id
    LEFT JOIN providers pin ON pin.user_id = u.id AND pin.direction = 'in'
    LEFT JOIN providers pout ON pout.user_id = u.id AND pout.direction = 'out'
    WHERE @company IS NULL OR co.id = @company
    ORDER BY co.created_at, co.id, u.created_at, u.id
    LIMIT @limit`)
  const credentialsStmt = db.prepare(`
    SELECT c.user_id, c.client_id, c.environment, c.revoked FROM credentials c
    JOIN users u ON u.id = c.user_id
    WHERE @company IS NULL OR u.company_id = @company
    ORDER BY c.created_at, c.client_id`)
  const inactiveKeysStmt = db.prepare('SELECT key, type FROM pix_keys WHERE active = 0 ORDER BY key LIMIT ?')
  return {
    /** Keys of the key directory that transfers fail on (inactive), at most `limit`. */
    inactiveKeys(limit = 20): { key: string; type: string }[] {
      return inactiveKeysStmt.all(limit) as { key: string; type: string }[]
    },
    /** Companies (all, or one), oldest first, at most `limit` users in all. */
    companies(companyId: string | null, limit = 500): DirectoryCompany[] {
      const byUser = new Map<string, DirectoryCredential[]>()
      for (const r of credentialsStmt.all({ company: companyId }) as any[]) {
        const list = byUser.get(r.user_id) ?? []
        list.push({ clientId: r.client_id, environment: r.environment, revoked: r.revoked === 1 })
        byUser.set(r.user_id, list)
      }
      const companies = new Map<string, DirectoryCompany>()
      for (const r of usersStmt.all({ company: companyId, limit }) as any[]) {
        let co = companies.get(r.company_id)
        if (!co) companies.set(r.company_id, (co = { id: r.company_id, name: r.company_name, apiActive: r.api_active === 1, users: [] }))
        if (r.id === null) continue
        co.users.push({
          id: r.id,
          name: r.name,
          permissions: splitList(r.permissions),
          balance: r.balance,
          providers: { in: provider(r.in_name, r.in_ops), out: provider(r.out_name, r.out_ops) },
          credentials: byUser.get(r.id) ?? [],
        })
      }
      return [...companies.values()]
    },
  }
}
