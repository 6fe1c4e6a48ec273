// Each attempt keeps the request headers it sent (issue 10: the dashboard shows "the exact body
// and headers sent"), as JSON text bounded by the store (MAX_HEADERS_TEXT in store/attempt-headers.ts).
// Attempts made before this migration have none: NULL, which readers show as "not recorded".
export const sql = `
ALTER TABLE delivery_attempts ADD COLUMN headers TEXT CHECK (headers IS NULL OR length(headers) <= 4096);
`
