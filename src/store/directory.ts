// Read-only listings (the control plane's GET /companies and GET /scenario, which the dashboard
// shows): companies, a page at a time, with their users, balances, Providers, permissions and
// credential ids (secrets are stored hashed, so none), and the inactive keys of the key directory.
import type { Environment, Operation, PixType, Provider } from '../domain/types.js'
import type { Db } from './db.js'

export interface DirectoryCredential {
  clientId: string
  environment: Environment
  revoked: boolean
}

export interface DirectoryUser {
  id: string
  name: string
  permissions: Operation[]
  balance: number
  providers: { in: Provider | null; out: Provider | null }
  credentials: DirectoryCredential[]
}

export interface DirectoryCompany {
  id: string
  name: string
  apiActive: boolean
  users: DirectoryUser[]
}

const splitList = (s: string | null) => (s ? (s.split(',') as Operation[]) : [])
const provider = (name: string | null, ops: string | null): Provider | null =>
  name === null ? null : { name, operations: splitList(ops) }

/** One page of companies, oldest first; `next` names the last one, to ask for those after it. */
export interface DirectoryPage {
  companies: DirectoryCompany[]
  next: string | null
}

/** Companies a page shows: 20,000 of them made one page of 660 KB. */
export const DIRECTORY_PAGE = 50
/** Users a page shows at most, all its companies together. */
const USERS_PER_PAGE = 500

export function directoryStore(db: Db) {
  // Keyset paging on (created_at, id): stable while companies come and go. Users and credentials
  // made at the same instant (a scenario's) are listed as they were written: as the file lists them.
  const companiesStmt = db.prepare(`
    SELECT id, name, api_active FROM companies
    WHERE (@company IS NULL OR id = @company)
      AND (@after IS NULL OR (created_at, id) > (SELECT created_at, id FROM companies WHERE id = @after))
    ORDER BY created_at, id
    LIMIT @limit`)
  const usersStmt = db.prepare(`
    SELECT u.company_id, u.id, u.name, u.permissions, u.balance,
           pin.name AS in_name, pin.operations AS in_ops, pout.name AS out_name, pout.operations AS out_ops
    FROM users u
    LEFT JOIN providers pin ON pin.user_id = u.id AND pin.direction = 'in'
    LEFT JOIN providers pout ON pout.user_id = u.id AND pout.direction = 'out'
    WHERE u.company_id IN (SELECT value FROM json_each(@companies))
    ORDER BY u.created_at, u.rowid
    LIMIT @limit`)
  const credentialsStmt = db.prepare(`
    SELECT c.user_id, c.client_id, c.environment, c.revoked FROM credentials c
    WHERE c.user_id IN (SELECT value FROM json_each(@users))
    ORDER BY c.created_at, c.rowid`)
  const inactiveKeysStmt = db.prepare(
    'SELECT key, type FROM pix_keys WHERE active = 0 ORDER BY key LIMIT ?',
  )
  return {
    /** Keys of the key directory that transfers fail on (inactive), at most `limit`. */
    inactiveKeys(limit: number): { key: string; type: PixType }[] {
      return inactiveKeysStmt.all(limit) as { key: string; type: PixType }[]
    },
    /** A page of companies (all, or one), oldest first: `after` is the `next` of the page before. */
    companies(
      companyId: string | null,
      { after = null, limit = DIRECTORY_PAGE }: { after?: string | null; limit?: number } = {},
    ): DirectoryPage {
      const rows = companiesStmt.all({ company: companyId, after, limit: limit + 1 }) as {
        id: string
        name: string
        api_active: number
      }[]
      const page = rows.slice(0, limit)
      const companies = new Map<string, DirectoryCompany>(
        page.map((r) => [
          r.id,
          { id: r.id, name: r.name, apiActive: r.api_active === 1, users: [] },
        ]),
      )
      const users = usersStmt.all({
        companies: JSON.stringify([...companies.keys()]),
        limit: USERS_PER_PAGE,
      }) as any[]
      const byUser = new Map<string, DirectoryCredential[]>()
      for (const r of credentialsStmt.all({
        users: JSON.stringify(users.map((u) => u.id)),
      }) as any[]) {
        const list = byUser.get(r.user_id) ?? []
        list.push({ clientId: r.client_id, environment: r.environment, revoked: r.revoked === 1 })
        byUser.set(r.user_id, list)
      }
      for (const r of users) {
        companies.get(r.company_id)!.users.push({
          id: r.id,
          name: r.name,
          permissions: splitList(r.permissions),
          balance: r.balance,
          providers: { in: provider(r.in_name, r.in_ops), out: provider(r.out_name, r.out_ops) },
          credentials: byUser.get(r.id) ?? [],
        })
      }
      return {
        companies: [...companies.values()],
        next: rows.length > limit ? page.at(-1)!.id : null,
      }
    },
  }
}
