// Faults that lose the answer after the write (issue 32): `after_write` lets the operation take
// effect first and then answers the fault's status; `drop_answer` then closes the connection
// without an answer. What a real payment API does when it fails late: the transfer exists, the
// client does not know.
export const sql = `
ALTER TABLE faults ADD COLUMN after_write INTEGER NOT NULL DEFAULT 0 CHECK (after_write IN (0, 1));
ALTER TABLE faults ADD COLUMN drop_answer INTEGER NOT NULL DEFAULT 0 CHECK (drop_answer IN (0, 1) AND (drop_answer = 0 OR after_write = 1));
`
