// The first schema. Times are epoch microseconds (virtual time); money is integer cents.
export const sql = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE companies (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  city TEXT NOT NULL,
  api_active INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  permissions TEXT NOT NULL,
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
  created_at INTEGER NOT NULL
);
CREATE INDEX users_company ON users(company_id);

CREATE TABLE providers (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  name TEXT NOT NULL,
  operations TEXT NOT NULL,
  PRIMARY KEY (user_id, direction)
);

CREATE TABLE credentials (
  client_id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash BLOB NOT NULL,
  environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
  revoked INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX credentials_user ON credentials(user_id);

CREATE TABLE pix_keys (
  key TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  active INTEGER NOT NULL,
  owner_name TEXT
);

CREATE TABLE rules (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('charge', 'transfer')),
  definition TEXT NOT NULL
);

CREATE TABLE charges (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount > 0),
  description TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'cancelled')),
  qr_code TEXT NOT NULL,
  qr_code_name TEXT NOT NULL,
  location_id TEXT NOT NULL UNIQUE,
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
  revision INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX charges_company ON charges(company_id, seq);
CREATE INDEX charges_pending_due ON charges(due_at) WHERE status = 'pending';
CREATE UNIQUE INDEX charges_end_to_end ON charges(end_to_end_id) WHERE end_to_end_id IS NOT NULL;
-- Only charges that reused a client's code are looked up by code; generated codes have a location.
CREATE INDEX charges_reused_code ON charges(qr_code) WHERE status = 'pending' AND reused_code = 1;

CREATE TABLE transfers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL CHECK (amount > 0),
  description TEXT,
  pix_key TEXT NOT NULL,
  pix_type TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('success', 'pending', 'failed')),
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settle_at INTEGER,
  final_status TEXT,
  final_message TEXT,
  settled_at INTEGER
);
CREATE INDEX transfers_company ON transfers(company_id, seq);
CREATE INDEX transfers_pending_due ON transfers(settle_at) WHERE status = 'pending';

CREATE TABLE ledger_entries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  amount INTEGER NOT NULL,
  kind TEXT NOT NULL,
  reference TEXT,
  at INTEGER NOT NULL,
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0)
);
CREATE INDEX ledger_user ON ledger_entries(user_id, seq);

CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  company_id TEXT,
  data TEXT NOT NULL
);
CREATE INDEX events_company ON events(company_id, seq);
`
