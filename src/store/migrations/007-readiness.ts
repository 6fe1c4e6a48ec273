// Readiness (docs/READINESS.md): what the sandbox saw of each company's integration, one row per company
// (and one, owner '', for calls that named no known company), written by the recorder at most
// once a second from memory (src/readiness/recorder.ts). Faults may ask a 503's client to wait
// (`retry_after`, seconds), so that a client's handling of Retry-After can be seen.
export const sql = `
CREATE TABLE readiness (
  owner TEXT PRIMARY KEY,
  since INTEGER NOT NULL,
  data TEXT NOT NULL CHECK (length(data) <= 65536)
);
ALTER TABLE faults ADD COLUMN retry_after INTEGER CHECK (retry_after IS NULL OR retry_after BETWEEN 1 AND 3600);
`
