// What a charge's and a transfer's ids need to outlive the rows (docs/decisions/2026-11-27-ids-keyed-per-store.md),
// one row per table whose ids carry their row's key (src/store/keyed-rows.ts):
// - `secret`: the store's own key of the permutation the row's key goes through into its ids, so
//   that an id tells nothing of how many rows came before it;
// - `high_water`: the highest key ever given, held before rows are deleted (a reset, a company's
//   deletion), so that no id the store ever gave comes back, after a restart included;
// - `checked_at_start`: the store's start count (meta `starts`) when its rows were last checked
//   for ids that do not carry their key (rows an older build wrote): a mismatch means an older
//   build ran on the store since, and its rows are looked for again.
// A table of its own rather than meta keys: an older build's reset deletes every meta key it
// does not know, and knows nothing of this table.
export const sql = `
CREATE TABLE id_keys (
  name TEXT PRIMARY KEY CHECK (name = 'charges' OR name = 'transfers'),
  secret BLOB NOT NULL CHECK (length(secret) = 16),
  high_water INTEGER NOT NULL DEFAULT 0,
  checked_at_start INTEGER
);
`
