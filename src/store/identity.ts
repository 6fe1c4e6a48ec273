// Companies, users, their Providers and credentials, and the single join that authentication
// reads per request. Every write bumps `version` so cached principals are dropped at once.
import type { Micros } from '../clock.js'
import type { Company, Direction, Environment, Operation, Principal, Provider } from '../domain/types.js'
import type { Db } from './db.js'

export interface CredentialRecord {
  principal: Principal
  secretHash: Buffer
  revoked: boolean
}

export interface NewUser {
  id: string
  companyId: string
  name: string
  permissions: Operation[]
  createdAt: Micros
}

export interface NewCredential {
  clientId: string
  userId: string
  secretHash: Buffer
  environment: Environment
  revoked: boolean
  createdAt: Micros
}

interface CompanyRow { id: string; name: string; city: string; api_active: number; created_at: number; updated_at: number }

export const toCompany = (r: CompanyRow): Company => ({
  id: r.id,
  name: r.name,
  city: r.city,
  apiActive: r.api_active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const toProvider = (name: string | null, ops: string | null): Provider | undefined =>
  name === null ? undefined : { name, operations: splitList(ops) as Operation[] }

const splitList = (s: string | null) => (s ? s.split(',') : [])

export function identityStore(db: Db) {
  let version = 0
  const bump = () => void version++
  const credentialStmt = db.prepare(`
    SELECT c.client_id, c.secret_hash, c.environment, c.revoked, u.id AS user_id, u.permissions,
           co.id, co.name, co.city, co.api_active, co.created_at, co.updated_at,
           pin.name AS in_name, pin.operations AS in_ops, pout.name AS out_name, pout.operations AS out_ops
    FROM credentials c
    JOIN users u ON u.id = c.user_id
    JOIN companies co ON co.id = u.company_id
    LEFT JOIN providers pin ON pin.user_id = u.id AND pin.direction = 'in'
    LEFT JOIN providers pout ON pout.user_id = u.id AND pout.direction = 'out'
    WHERE c.client_id = ?`)
  const companyStmt = db.prepare('SELECT * FROM companies WHERE id = ?')
  const upsertCompanyStmt = db.prepare(`
    INSERT INTO companies (id, name, city, api_active, created_at, updated_at)
    VALUES (@id, @name, @city, @apiActive, @createdAt, @updatedAt)`)
  const updateCompanyStmt = db.prepare(
    'UPDATE companies SET name = @name, city = @city, api_active = @apiActive, updated_at = @updatedAt WHERE id = @id',
  )
  const deleteCompanyStmt = db.prepare('DELETE FROM companies WHERE id = ?')
  const insertUserStmt = db.prepare(`
    INSERT INTO users (id, company_id, name, permissions, balance, created_at)
    VALUES (@id, @companyId, @name, @permissions, 0, @createdAt)`)
  const userCompanyStmt = db.prepare('SELECT company_id FROM users WHERE id = ?').pluck()
  const setProviderStmt = db.prepare(`
    INSERT INTO providers (user_id, direction, name, operations) VALUES (?, ?, ?, ?)
    ON CONFLICT (user_id, direction) DO UPDATE SET name = excluded.name, operations = excluded.operations`)
  const providersStmt = db.prepare('SELECT direction, name, operations FROM providers WHERE user_id = ?')
  const deleteProviderStmt = db.prepare('DELETE FROM providers WHERE user_id = ? AND direction = ?')
  const insertCredentialStmt = db.prepare(`
    INSERT INTO credentials (client_id, user_id, secret_hash, environment, revoked, created_at)
    VALUES (@clientId, @userId, @secretHash, @environment, @revoked, @createdAt)`)
  const clientExistsStmt = db.prepare('SELECT 1 FROM credentials WHERE client_id = ?').pluck()

  return {
    /** Changes whenever any identity row changes; caches compare it to stay correct. */
    version: () => version,
    /** For writes made outside this repository (a wipe, a cascade). */
    invalidate: bump,

    credential(clientId: string): CredentialRecord | undefined {
      const r = credentialStmt.get(clientId) as Record<string, any> | undefined
      if (!r) return undefined
      const providers: Partial<Record<Direction, Provider>> = {}
      const pin = toProvider(r.in_name, r.in_ops)
      const pout = toProvider(r.out_name, r.out_ops)
      if (pin) providers.in = pin
      if (pout) providers.out = pout
      return {
        secretHash: r.secret_hash,
        revoked: r.revoked === 1,
        principal: {
          clientId: r.client_id,
          environment: r.environment,
          userId: r.user_id,
          permissions: splitList(r.permissions) as Operation[],
          providers,
          company: toCompany(r as CompanyRow),
        },
      }
    },

    company(id: string): Company | undefined {
      const r = companyStmt.get(id) as CompanyRow | undefined
      return r && toCompany(r)
    },

    insertCompany(c: Company): void {
      upsertCompanyStmt.run({ ...c, apiActive: c.apiActive ? 1 : 0 })
      bump()
    },

    updateCompany(c: Company): void {
      updateCompanyStmt.run({ ...c, apiActive: c.apiActive ? 1 : 0 })
      bump()
    },

    deleteCompany(id: string): boolean {
      const n = deleteCompanyStmt.run(id).changes
      bump()
      return n > 0
    },

    insertUser(u: NewUser): void {
      insertUserStmt.run({ ...u, permissions: u.permissions.join(',') })
      bump()
    },

    userCompany(userId: string): string | undefined {
      return userCompanyStmt.get(userId) as string | undefined
    },

    setProvider(userId: string, direction: Direction, provider: Provider | null): void {
      if (provider) setProviderStmt.run(userId, direction, provider.name, provider.operations.join(','))
      else deleteProviderStmt.run(userId, direction)
      bump()
    },

    providers(userId: string): Partial<Record<Direction, Provider>> {
      const out: Partial<Record<Direction, Provider>> = {}
      for (const r of providersStmt.all(userId) as { direction: Direction; name: string; operations: string }[]) {
        out[r.direction] = toProvider(r.name, r.operations)!
      }
      return out
    },

    insertCredential(c: NewCredential): void {
      insertCredentialStmt.run({ ...c, revoked: c.revoked ? 1 : 0 })
      bump()
    },

    clientIdTaken(clientId: string): boolean {
      return clientExistsStmt.get(clientId) !== undefined
    },
  }
}

export type IdentityStore = ReturnType<typeof identityStore>
