// A charge's id and location and a transfer's id carry their row's seq (ids.ts), so the store
// finds them by their key: the UNIQUE indexes on those ids, written on every charge and transfer,
// go. A column constraint cannot be dropped, so both tables are rebuilt as 001 to 012 left them,
// without it. The rows written before keep the ids they were given, which carry no seq:
// `legacy_ids` marks them, and partial indexes keep finding them (and keep their ids unique)
// without any later row entering one. The store draws each seq itself now (the newest + 1, as
// qr_code_name always counted), so the tables drop AUTOINCREMENT, which wrote sqlite_sequence on
// every insert. The status CHECKs are written with OR: SQLite builds a table for the list of an
// IN at every run of a statement that checks it, ~1.2 µs on each insert and status change.
const CHARGE_COLUMNS = `seq, id, company_id, user_id, amount, description, status, qr_code,
  qr_code_name, location_id, created_at, expires_at, auto_pay_at, auto_cancel_at, due_at, paid_at,
  cancelled_at, cancel_reason, end_to_end_id, payer, reused_code, revision`
const TRANSFER_COLUMNS = `seq, id, company_id, user_id, amount, description, pix_key, pix_type,
  status, message, created_at, settle_at, final_status, final_message, settled_at`

/**
 * `table` rebuilt as `definition` (a CREATE TABLE of it), its rows copied and marked legacy. The
 * rows wait in a copy while the table is made anew: renaming a new table into place instead cost
 * a fresh store ~0.5 ms a table (SQLite checks the whole schema on a rename).
 */
const rebuild = (table: string, columns: string, definition: string) => `
CREATE TABLE ${table}_012 AS SELECT ${columns} FROM ${table};
DROP TABLE ${table};
${definition};
INSERT INTO ${table} (${columns}, legacy_ids) SELECT ${columns}, 1 FROM ${table}_012 ORDER BY seq;
DROP TABLE ${table}_012;`

export const sql = `
${rebuild(
  'charges',
  CHARGE_COLUMNS,
  `CREATE TABLE charges (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount > 0),
  description TEXT,
  status TEXT NOT NULL CHECK (status = 'pending' OR status = 'paid' OR status = 'cancelled'),
  qr_code TEXT NOT NULL,
  qr_code_name TEXT NOT NULL,
  location_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  auto_pay_at INTEGER,
  auto_cancel_at INTEGER,
  due_at INTEGER NOT NULL,
  paid_at INTEGER,
  cancelled_at INTEGER,
  cancel_reason TEXT,
  end_to_end_id TEXT,
  payer TEXT,
  reused_code INTEGER NOT NULL DEFAULT 0,
  revision INTEGER NOT NULL DEFAULT 0,
  legacy_ids INTEGER NOT NULL DEFAULT 0
)`,
)}
CREATE INDEX charges_company ON charges(company_id);
CREATE INDEX charges_pending_due ON charges(due_at) WHERE status = 'pending';
CREATE UNIQUE INDEX charges_end_to_end ON charges(company_id, end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX charges_reused_code ON charges(qr_code, company_id, seq) WHERE status = 'pending' AND reused_code = 1;
CREATE UNIQUE INDEX charges_legacy_id ON charges(id) WHERE legacy_ids = 1;
CREATE UNIQUE INDEX charges_legacy_location ON charges(location_id) WHERE legacy_ids = 1;

${rebuild(
  'transfers',
  TRANSFER_COLUMNS,
  `CREATE TABLE transfers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount > 0),
  description TEXT,
  pix_key TEXT NOT NULL,
  pix_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status = 'success' OR status = 'pending' OR status = 'failed'),
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settle_at INTEGER,
  final_status TEXT,
  final_message TEXT,
  settled_at INTEGER,
  legacy_ids INTEGER NOT NULL DEFAULT 0
)`,
)}
CREATE INDEX transfers_company ON transfers(company_id);
CREATE INDEX transfers_pending_due ON transfers(settle_at) WHERE status = 'pending';
CREATE UNIQUE INDEX transfers_legacy_id ON transfers(id) WHERE legacy_ids = 1;
`
