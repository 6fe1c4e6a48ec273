// End-to-end ids are unique within a company, not across companies: a global index let one
// tenant learn, and claim, the ids another tenant's Provider had used (issue 14).
export const sql = `
DROP INDEX charges_end_to_end;
CREATE UNIQUE INDEX charges_end_to_end ON charges(company_id, end_to_end_id) WHERE end_to_end_id IS NOT NULL;
`
