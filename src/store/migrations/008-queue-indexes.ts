// Queued outcomes and faults are looked up per company at every transfer and every contract call
// (the company's own rows and the admin's global ones, company_id NULL), and so are the webhook
// subscriptions an event goes to: indexes that answer that without reading other companies' rows
// (issue 35: one company's 80,000 queued rows made every tenant's transfers ten times slower).
export const sql = `
CREATE INDEX outcomes_company ON outcomes(company_id, seq);
CREATE INDEX faults_company ON faults(company_id, operation, seq);
CREATE INDEX webhooks_company ON webhooks(company_id);
`
