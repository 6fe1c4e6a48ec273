// Every table's columns, written once. A table's row type, the column list that each query
// building a record selects and every INSERT (`insertInto`) derive from here, so a column is read
// and written everywhere or nowhere; `test/store/tables.test.ts` compares each list with the table
// the migrations built.
import type { Database, RunResult, Statement } from 'better-sqlite3'

type Column<T> = { readonly type?: T }
const column = <T>(): Column<T> => ({})
const text = column<string>()
const textOrNull = column<string | null>()
const int = column<number>()
const intOrNull = column<number | null>()
const realOrNull = column<number | null>()
const blob = column<Buffer>()

export interface Table<Row> {
  name: string
  columns: readonly (keyof Row & string)[]
  /** The columns for a SELECT, prefixed with `alias.` in a join. */
  select(alias?: string): string
}

export type RowOf<T> = T extends Table<infer Row> ? Row : never

function table<C extends Record<string, Column<unknown>>>(
  name: string,
  columns: C,
): Table<{ [K in keyof C]: C[K] extends Column<infer T> ? T : never }> {
  const names = Object.keys(columns) as (keyof C & string)[]
  const plain = names.join(', ')
  return {
    name,
    columns: names,
    select: (alias) => (alias ? names.map((n) => `${alias}.${n}`).join(', ') : plain),
  }
}

export const TABLES = {
  meta: table('meta', { key: text, value: text }),
  companies: table('companies', {
    id: text,
    name: text,
    city: text,
    api_active: int,
    created_at: int,
    updated_at: int,
  }),
  users: table('users', {
    id: text,
    company_id: text,
    name: text,
    permissions: text,
    balance: int,
    created_at: int,
  }),
  providers: table('providers', { user_id: text, direction: text, name: text, operations: text }),
  credentials: table('credentials', {
    client_id: text,
    user_id: text,
    secret_hash: blob,
    environment: text,
    revoked: int,
    created_at: int,
  }),
  pix_keys: table('pix_keys', { key: text, type: text, active: int, owner_name: textOrNull }),
  rules: table('rules', { seq: int, kind: text, definition: text }),
  charges: table('charges', {
    seq: int,
    id: text,
    company_id: text,
    user_id: text,
    amount: int,
    description: textOrNull,
    status: text,
    qr_code: text,
    qr_code_name: text,
    location_id: text,
    created_at: int,
    expires_at: int,
    auto_pay_at: intOrNull,
    auto_cancel_at: intOrNull,
    due_at: int,
    paid_at: intOrNull,
    cancelled_at: intOrNull,
    cancel_reason: textOrNull,
    end_to_end_id: textOrNull,
    payer: textOrNull,
    reused_code: int,
    revision: int,
    legacy_ids: int,
  }),
  transfers: table('transfers', {
    seq: int,
    id: text,
    company_id: text,
    user_id: text,
    amount: int,
    description: textOrNull,
    pix_key: text,
    pix_type: text,
    status: text,
    message: text,
    created_at: int,
    settle_at: intOrNull,
    final_status: textOrNull,
    final_message: textOrNull,
    settled_at: intOrNull,
    legacy_ids: int,
  }),
  ledger_entries: table('ledger_entries', {
    seq: int,
    user_id: text,
    amount: int,
    kind: text,
    reference: textOrNull,
    at: int,
    balance_after: int,
  }),
  events: table('events', {
    seq: int,
    id: text,
    type: text,
    at: int,
    company_id: textOrNull,
    data: text,
  }),
  outcomes: table('outcomes', {
    seq: int,
    company_id: textOrNull,
    status: text,
    message: textOrNull,
    settle_after_seconds: intOrNull,
    final_status: textOrNull,
    final_message: textOrNull,
    match_pix_key: textOrNull,
    match_pix_type: textOrNull,
    match_amount: intOrNull,
    remaining: int,
    created_at: int,
  }),
  faults: table('faults', {
    seq: int,
    company_id: textOrNull,
    operation: text,
    status: intOrNull,
    delay_ms: int,
    remaining: intOrNull,
    created_at: int,
    retry_after: intOrNull,
    after_write: int,
    drop_answer: int,
  }),
  webhooks: table('webhooks', {
    id: text,
    company_id: textOrNull,
    url: text,
    events: text,
    format: text,
    secret: text,
    chaos: textOrNull,
    disabled_at: intOrNull,
    disabled_reason: textOrNull,
    created_at: int,
  }),
  deliveries: table('deliveries', {
    seq: int,
    id: text,
    webhook_id: text,
    event_id: text,
    event_type: text,
    company_id: textOrNull,
    body: text,
    status: text,
    attempts: int,
    next_attempt_at: intOrNull,
    created_at: int,
    delivered_at: intOrNull,
    last_error: textOrNull,
  }),
  delivery_attempts: table('delivery_attempts', {
    seq: int,
    delivery_id: text,
    at: int,
    status_code: intOrNull,
    latency_ms: realOrNull,
    error: textOrNull,
    chaos: textOrNull,
    headers: textOrNull,
  }),
  readiness: table('readiness', { owner: text, since: int, data: text }),
  id_keys: table('id_keys', {
    name: text,
    secret: blob,
    high_water: int,
    checked_at_start: intOrNull,
  }),
  schema_migrations: table('schema_migrations', { version: int, name: text, applied_at: text }),
}

/** What an INSERT into `T` takes: every column but `Defaults`, those it leaves to the database. */
export type InsertRow<T, Defaults extends keyof RowOf<T> = never> = Omit<RowOf<T>, Defaults>

export interface Insert<Row> {
  run(row: Row): RunResult
}

/**
 * An INSERT of every column of `table` but `defaults`, prepared once, taking the row a record
 * becomes (each store's `toRow`, typed by `InsertRow`): a column added to the table and neither
 * in the row nor in `defaults` fails the typecheck there, and so does a field of the row the
 * table does not have. `defaults` are what the database fills in (an INTEGER PRIMARY KEY, a
 * DEFAULT, NULL), named one by one. `onConflict` names a unique key: the row then replaces the
 * other columns of the row holding it.
 * The values are bound by position, read from the row by a function built once from the column
 * list: binding by name (better-sqlite3 looks every parameter up in the object) cost a charge's
 * INSERT 1.2 µs more, a loop over the columns 0.3 µs; this one costs what hand-written
 * positional arguments did (within the noise of a 2 µs insert of 15 columns).
 */
export function insertInto<Row, const Defaults extends readonly (keyof Row & string)[] = []>(
  db: Database,
  table: Table<Row>,
  {
    defaults,
    onConflict,
  }: { defaults?: Defaults; onConflict?: readonly (keyof Row & string)[] } = {},
): Insert<Omit<Row, Defaults[number]>> {
  const columns = insertedColumns(table, defaults)
  const others = columns.filter((c) => !onConflict?.includes(c))
  const upsert = onConflict
    ? ` ON CONFLICT (${onConflict.join(', ')}) DO UPDATE SET ${others.map((c) => `${c} = excluded.${c}`).join(', ')}`
    : ''
  const statement = db.prepare(`${insertHead(table, columns)} ${valuesOf(columns, 1)}${upsert}`)
  const bind = new Function(
    'statement',
    `return (row) => statement.run(${columns.map((c) => `row.${c}`).join(', ')})`,
  )
  return { run: bind(statement) }
}

/** Rows at most in one of `insertAllInto`'s statements. */
const ROWS_AT_ONCE = 8

/**
 * `insertInto` for rows written together (a transfer's events): one statement for all of them,
 * prepared for each count on first use. Each row after the first cost ~0.7 µs less than its
 * own INSERT of ~4 µs (docs/PERFORMANCE.md).
 */
export function insertAllInto<Row, const Defaults extends readonly (keyof Row & string)[] = []>(
  db: Database,
  table: Table<Row>,
  { defaults }: { defaults?: Defaults } = {},
): { run(rows: readonly Omit<Row, Defaults[number]>[]): void } {
  const columns = insertedColumns(table, defaults)
  const head = insertHead(table, columns)
  const statements: Statement[] = []
  const put = new Function(
    'row',
    'values',
    'at',
    columns.map((c, i) => `values[at + ${i}] = row.${c}`).join('\n'),
  ) as (row: unknown, values: unknown[], at: number) => void
  return {
    run(rows) {
      for (let from = 0; from < rows.length; from += ROWS_AT_ONCE) {
        const n = Math.min(ROWS_AT_ONCE, rows.length - from)
        const statement = (statements[n] ??= db.prepare(`${head} ${valuesOf(columns, n)}`))
        const values = new Array<unknown>(n * columns.length)
        for (let i = 0; i < n; i++) put(rows[from + i], values, i * columns.length)
        statement.run(values)
      }
    },
  }
}

/** The columns an INSERT writes: all of the table's but `defaults`, each checked to be a plain name (they are written into code). */
function insertedColumns<Row>(
  table: Table<Row>,
  defaults: readonly string[] | undefined,
): (keyof Row & string)[] {
  const columns = table.columns.filter((c) => !defaults?.includes(c))
  for (const c of columns)
    if (!/^[a-z_][a-z0-9_]*$/.test(c)) throw new Error(`not a column name: ${c}`)
  return columns
}

const insertHead = (table: { name: string }, columns: readonly string[]) =>
  `INSERT INTO ${table.name} (${columns.join(', ')})`

/** `VALUES` with `rows` rows of one parameter per column. */
const valuesOf = (columns: readonly string[], rows: number) =>
  `VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => '?').join(', ')})`).join(', ')}`
