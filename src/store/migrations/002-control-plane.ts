// Queued outcomes, injected faults and the request journal of the control plane.
export const sql = `
CREATE TABLE outcomes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id TEXT REFERENCES companies(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('success', 'pending', 'failed')),
  message TEXT,
  settle_after_seconds INTEGER,
  final_status TEXT,
  final_message TEXT,
  match_pix_key TEXT,
  match_pix_type TEXT,
  match_amount INTEGER,
  remaining INTEGER NOT NULL CHECK (remaining > 0),
  created_at INTEGER NOT NULL
);

CREATE TABLE faults (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  company_id TEXT REFERENCES companies(id) ON DELETE CASCADE,
  operation TEXT NOT NULL CHECK (operation IN ('charge', 'transfer', 'company')),
  status INTEGER,
  delay_ms INTEGER NOT NULL DEFAULT 0,
  remaining INTEGER CHECK (remaining IS NULL OR remaining > 0),
  created_at INTEGER NOT NULL
);

CREATE TABLE requests (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT NOT NULL,
  status INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  company_id TEXT,
  request_headers TEXT NOT NULL,
  request_body TEXT,
  response_body TEXT
);
CREATE INDEX requests_path ON requests(path, method);
`
