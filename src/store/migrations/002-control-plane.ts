// Queued outcomes and injected faults of the control plane.
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
`
