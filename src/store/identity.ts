// Companies, users, their Providers and credentials, and the single join that authentication
// reads per request. Every write bumps `version` so cached principals are dropped at once.
import type { Micros } from '../clock.js'
import type {
  Company,
  Direction,
  Environment,
  Operation,
  Principal,
  Provider,
} from '../domain/types.js'
import { forgetCaches, keepsCache } from './caches.js'
import { holdHighWater } from './keyed-rows.js'
import type { Db } from './db.js'
import { insertInto, TABLES, type InsertRow, type RowOf } from './tables.js'

/** What a login checks first: the same shape, and the same work, for a known and an unknown client id. */
export interface CredentialCheck {
  known: boolean
  secretHash: Buffer
  revoked: boolean
  environment: Environment
}

/** A stand-in hash for lookups that only ask whether a client id is known (the dashboard's). */
export const NO_HASH: Buffer = Buffer.alloc(32)

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

const {
  companies: COMPANIES,
  credentials: CREDENTIALS,
  providers: PROVIDERS,
  users: USERS,
} = TABLES
type CompanyRow = RowOf<typeof COMPANIES>

export const toCompany = (r: CompanyRow): Company => ({
  id: r.id,
  name: r.name,
  city: r.city,
  apiActive: r.api_active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

const companyRow = (c: Company): InsertRow<typeof COMPANIES> => ({
  id: c.id,
  name: c.name,
  city: c.city,
  api_active: c.apiActive ? 1 : 0,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
})

/** A new user's row: its balance starts at 0, and only ledger entries move it (opening ones included). */
const userRow = (u: NewUser): InsertRow<typeof USERS> => ({
  id: u.id,
  company_id: u.companyId,
  name: u.name,
  permissions: u.permissions.join(','),
  balance: 0,
  created_at: u.createdAt,
})

const credentialRow = (c: NewCredential): InsertRow<typeof CREDENTIALS> => ({
  client_id: c.clientId,
  user_id: c.userId,
  secret_hash: c.secretHash,
  environment: c.environment,
  revoked: c.revoked ? 1 : 0,
  created_at: c.createdAt,
})

/** What the principal's join reads beside the company's own columns. */
interface PrincipalColumns {
  client_id: RowOf<typeof CREDENTIALS>['client_id']
  environment: RowOf<typeof CREDENTIALS>['environment']
  user_id: string
  permissions: RowOf<typeof USERS>['permissions']
  in_name: string | null
  in_ops: string | null
  out_name: string | null
  out_ops: string | null
}

const toProvider = (name: string | null, ops: string | null): Provider | undefined =>
  name === null ? undefined : { name, operations: splitList(ops) as Operation[] }

const splitList = (s: string | null) => (s ? s.split(',') : [])

export function identityStore(db: Db) {
  let version = 0
  const bump = () => void version++
  // The companies' count, kept as they are added (MAX_COMPANIES is checked at every tenant:
  // counting 6,500 rows each time showed in a sequential tenant's time); forgotten on any other change.
  let companies: number | undefined
  // After a rollback or a wipe: principals and the count may hold what was undone.
  keepsCache(db, () => {
    bump()
    companies = undefined
  })
  // One row of the same columns whether or not the id exists (a dummy hash and a revoked
  // credential standing in), so a known and an unknown client id cost the same: no join, no
  // principal until the secret has matched.
  const checkStmt = db.prepare(`
    SELECT c.client_id IS NOT NULL AS known, coalesce(c.secret_hash, @dummyHash) AS secret_hash,
           coalesce(c.revoked, 1) AS revoked, coalesce(c.environment, 'sandbox') AS environment
    FROM (SELECT @clientId AS client_id) q LEFT JOIN credentials c ON c.client_id = q.client_id`)
  // The company's columns are its table's whole list, so a column added there is read here too.
  const principalStmt = db.prepare<[string], CompanyRow & PrincipalColumns>(`
    SELECT c.client_id, c.environment, u.id AS user_id, u.permissions, ${COMPANIES.select('co')},
           pin.name AS in_name, pin.operations AS in_ops, pout.name AS out_name, pout.operations AS out_ops
    FROM credentials c
    JOIN users u ON u.id = c.user_id
    JOIN companies co ON co.id = u.company_id
    LEFT JOIN providers pin ON pin.user_id = u.id AND pin.direction = 'in'
    LEFT JOIN providers pout ON pout.user_id = u.id AND pout.direction = 'out'
    WHERE c.client_id = ?`)
  const companyStmt = db.prepare<[string], CompanyRow>(
    `SELECT ${COMPANIES.select()} FROM companies WHERE id = ?`,
  )
  const insertCompanyStmt = insertInto(db, COMPANIES)
  const updateCompanyStmt = db.prepare(
    'UPDATE companies SET name = @name, city = @city, api_active = @apiActive, updated_at = @updatedAt WHERE id = @id',
  )
  const deleteCompanyStmt = db.prepare('DELETE FROM companies WHERE id = ?')
  const insertUserStmt = insertInto(db, USERS)
  const userCompanyStmt = db.prepare('SELECT company_id FROM users WHERE id = ?').pluck()
  const setProviderStmt = insertInto(db, PROVIDERS, { onConflict: ['user_id', 'direction'] })
  const providersStmt = db.prepare(
    'SELECT direction, name, operations FROM providers WHERE user_id = ?',
  )
  const deleteProviderStmt = db.prepare('DELETE FROM providers WHERE user_id = ? AND direction = ?')
  const insertCredentialStmt = insertInto(db, CREDENTIALS)
  const clientExistsStmt = db.prepare('SELECT 1 FROM credentials WHERE client_id = ?').pluck()
  const clientOwnerStmt = db.prepare<
    [string],
    { company_id: string; environment: string; secret_hash: Buffer }
  >(
    'SELECT u.company_id, c.environment, c.secret_hash FROM credentials c JOIN users u ON u.id = c.user_id WHERE c.client_id = ?',
  )
  const companyCountStmt = db.prepare('SELECT count(*) FROM companies').pluck()
  const takenStmt = db.prepare(`SELECT EXISTS (SELECT 1 FROM companies WHERE id = ?) AS company,
    EXISTS (SELECT 1 FROM users WHERE id = ?) AS user, EXISTS (SELECT 1 FROM credentials WHERE client_id = ?) AS client`)

  return {
    /** Changes whenever any identity row changes; caches compare it to stay correct. */
    version: () => version,

    /** The stored hash of a client id's secret, or `dummyHash` when the id is unknown. */
    credentialCheck(clientId: string, dummyHash: Buffer): CredentialCheck {
      const r = checkStmt.get({ clientId, dummyHash }) as {
        known: number
        secret_hash: Buffer
        revoked: number
        environment: Environment
      }
      return {
        known: r.known === 1,
        secretHash: r.secret_hash,
        revoked: r.revoked === 1,
        environment: r.environment,
      }
    },

    /** Who a client id acts as: its user, company and Providers. */
    principal(clientId: string): Principal | undefined {
      const r = principalStmt.get(clientId)
      if (!r) return undefined
      const providers: Partial<Record<Direction, Provider>> = {}
      const pin = toProvider(r.in_name, r.in_ops)
      const pout = toProvider(r.out_name, r.out_ops)
      if (pin) providers.in = pin
      if (pout) providers.out = pout
      return {
        clientId: r.client_id,
        environment: r.environment as Environment,
        userId: r.user_id,
        permissions: splitList(r.permissions) as Operation[],
        providers,
        company: toCompany(r),
      }
    },

    company(id: string): Company | undefined {
      const r = companyStmt.get(id)
      return r && toCompany(r)
    },

    insertCompany(c: Company): void {
      insertCompanyStmt.run(companyRow(c))
      bump()
      if (companies !== undefined) companies++
    },

    updateCompany(c: Company): void {
      updateCompanyStmt.run({ ...c, apiActive: c.apiActive ? 1 : 0 })
      bump()
    },

    /**
     * Deletes a company and, by cascade, everything it owns: every repository forgets what it
     * kept of those rows (a scenario replacing a company left its subscriptions remembered, and
     * the next event queued a delivery for one that was gone).
     */
    deleteCompany(id: string): boolean {
      // Its charges and transfers go too: the highest seq given is held first (keyed-rows.ts).
      holdHighWater(db)
      const n = deleteCompanyStmt.run(id).changes
      forgetCaches(db)
      return n > 0
    },

    insertUser(u: NewUser): void {
      insertUserStmt.run(userRow(u))
      bump()
    },

    userCompany(userId: string): string | undefined {
      return userCompanyStmt.get(userId) as string | undefined
    },

    setProvider(userId: string, direction: Direction, provider: Provider | null): void {
      if (provider)
        setProviderStmt.run({
          user_id: userId,
          direction,
          name: provider.name,
          operations: provider.operations.join(','),
        })
      else deleteProviderStmt.run(userId, direction)
      bump()
    },

    providers(userId: string): Partial<Record<Direction, Provider>> {
      const out: Partial<Record<Direction, Provider>> = {}
      for (const r of providersStmt.all(userId) as {
        direction: Direction
        name: string
        operations: string
      }[]) {
        out[r.direction] = toProvider(r.name, r.operations)!
      }
      return out
    },

    insertCredential(c: NewCredential): void {
      insertCredentialStmt.run(credentialRow(c))
      bump()
    },

    /** Which of a new tenant's ids are already held, in one statement (a tenant's decision asks it). */
    taken(
      companyId: string,
      userId: string,
      clientId: string,
    ): { company: boolean; user: boolean; client: boolean } {
      const r = takenStmt.get(companyId, userId, clientId) as {
        company: number
        user: number
        client: number
      }
      return { company: r.company === 1, user: r.user === 1, client: r.client === 1 }
    },

    companyCount: (): number => (companies ??= companyCountStmt.get() as number),

    clientIdTaken(clientId: string): boolean {
      return clientExistsStmt.get(clientId) !== undefined
    },

    /** Whose a client id is, whatever its state (readiness: a 401 belongs to the company it names). */
    clientOwner(
      clientId: string,
    ): { companyId: string; environment: Environment; secretHash: Buffer } | undefined {
      const r = clientOwnerStmt.get(clientId)
      return (
        r && {
          companyId: r.company_id,
          environment: r.environment as Environment,
          secretHash: r.secret_hash,
        }
      )
    },
  }
}

export type IdentityStore = ReturnType<typeof identityStore>
