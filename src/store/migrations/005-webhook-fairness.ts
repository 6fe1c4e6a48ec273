// The worker asks each subscription for its own due deliveries
// (docs/decisions/2026-11-23-webhook-scheduling.md): an index that answers that without scanning
// the subscription's history.
export const sql = `
CREATE INDEX deliveries_due_by_webhook ON deliveries(webhook_id, next_attempt_at) WHERE status = 'pending';
`
