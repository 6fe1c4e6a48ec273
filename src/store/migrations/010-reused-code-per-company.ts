// A charge that reused a client's code is found by that code, within the paying company when a
// company pays (docs/CONTROL-PLANE.md, /_sandbox/pay). Indexed on the code alone, that lookup read
// every company's pending charges carrying the code, and test suites often reuse one published
// example code: one tenant's thousands made another's payment slower. The company now narrows
// the seek (docs/decisions/2026-11-25-per-tenant-cost.md).
export const sql = `
DROP INDEX charges_reused_code;
CREATE INDEX charges_reused_code ON charges(qr_code, company_id, seq) WHERE status = 'pending' AND reused_code = 1;
`
