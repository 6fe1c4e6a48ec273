// Outbound webhooks: subscriptions, a persistent delivery queue and every attempt.
export const sql = `
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  company_id TEXT REFERENCES companies(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('standard', 'bcb')),
  secret TEXT NOT NULL,
  chaos TEXT,
  disabled_at INTEGER,
  disabled_reason TEXT,
  created_at INTEGER NOT NULL
);

CREATE TABLE deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  company_id TEXT,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER,
  last_error TEXT
);
CREATE INDEX deliveries_due ON deliveries(next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_webhook ON deliveries(webhook_id, seq);

CREATE TABLE delivery_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  status_code INTEGER,
  latency_ms REAL,
  error TEXT,
  chaos TEXT
);
CREATE INDEX delivery_attempts_delivery ON delivery_attempts(delivery_id, seq);
`
