// Rows whose ids carry their own `seq` (ids.ts: charges, transfers): the next row's seq, the code
// of a seq its ids carry, and a row found by such an id with one lookup of the table's key
// (docs/decisions/2026-11-26-ids-carry-their-key.md). The code is a keyed permutation of the seq
// under the store's own secret (speck.ts, the `id_keys` table), so an id tells nothing of other
// rows; and no seq is given twice, a deleted row's included: the highest ever given is held
// before rows go (docs/decisions/2026-11-27-ids-keyed-per-store.md). Rows whose ids carry no
// seq (written before migration 013, or by an older build since: `legacy_ids = 1`) are found by
// the partial indexes migration 013 left, which no later row enters.
import { createHash, randomBytes } from 'node:crypto'
import type { Statement } from 'better-sqlite3'
import { keepsCache } from './caches.js'
import type { Db } from './db.js'
import { idTakenOr } from './id-taken.js'
import { speck32, type Permutation } from './speck.js'
import type { Table } from './tables.js'

/** The tables whose ids carry their row's key. */
export type KeyedTable = 'charges' | 'transfers'

/** A new table's secret: from SEED, so that seeded runs draw the same ids; random otherwise. */
export const newSecret = (seed: string | undefined, table: KeyedTable): Buffer =>
  seed === undefined
    ? randomBytes(16)
    : createHash('sha256')
        .update(`pix-sandbox ids\u0000${seed}\u0000${table}`)
        .digest()
        .subarray(0, 16)

const holding = new WeakMap<Db, Statement[]>()

/** Records, before rows are deleted, the highest seq each keyed table ever gave. */
export function holdHighWater(db: Db): void {
  let statements = holding.get(db)
  if (!statements)
    holding.set(
      db,
      (statements = (['charges', 'transfers'] satisfies KeyedTable[]).map((name) =>
        db.prepare(
          `UPDATE id_keys SET high_water = max(high_water, (SELECT coalesce(max(seq), 0) FROM ${name})) WHERE name = '${name}'`,
        ),
      )),
    )
  for (const statement of statements) statement.run()
}

/**
 * `columns`: each column whose values carry the row's seq, with how to read the code a value
 * carries (ids.ts); `seed`: SEED, for a store's first secret.
 */
export function keyedRows<
  Row extends { seq: number; legacy_ids: number },
  C extends keyof Row & string,
>(
  db: Db,
  table: Table<Row>,
  columns: Record<C, (value: string) => number>,
  seed: string | undefined,
) {
  const name = table.name as KeyedTable
  // Made once per store, kept through resets; a second server racing to make it reads the first's.
  const secretStmt = db.prepare('SELECT secret FROM id_keys WHERE name = ?').pluck()
  let secret = secretStmt.get(name) as Buffer | undefined
  if (!secret) {
    db.prepare('INSERT OR IGNORE INTO id_keys (name, secret) VALUES (?, ?)').run(
      name,
      newSecret(seed, name),
    )
    secret = secretStmt.get(name) as Buffer
  }
  const permutations = {} as Record<C, Permutation>
  for (const column of Object.keys(columns) as C[])
    permutations[column] = speck32(createHash('sha256').update(secret).update(column).digest())

  const bySeq = db.prepare<[number], Row>(`SELECT ${table.select()} FROM ${name} WHERE seq = ?`)
  const highest = db
    .prepare(
      `SELECT max(coalesce((SELECT max(seq) FROM ${name}), 0), (SELECT high_water FROM id_keys WHERE name = ?))`,
    )
    .pluck()
  // The newest seq given: a query per write showed in profiles. A rollback can leave it ahead,
  // which only skips a number; a wipe or an abandoned group forgets it.
  let lastSeq: number | undefined
  keepsCache(db, () => void (lastSeq = undefined))

  const checkedAt = (starts: number): void =>
    void db.prepare('UPDATE id_keys SET checked_at_start = ? WHERE name = ?').run(starts, name)

  const seqIn = (column: C, value: string): number => {
    const code = columns[column](value)
    return code < 0 ? -1 : permutations[column].decode(code)
  }

  return {
    nextSeq: (): number => (lastSeq ??= highest.get(name) as number) + 1,

    /** The code of `seq` that `column`'s value carries. */
    code: (column: C, seq: number): number => permutations[column].encode(seq),

    /**
     * Writes the row at `seq` (`nextSeq()`). A key taken by a row this cache did not see is
     * IdTaken, and the next decision reads the newest again.
     */
    insert(seq: number, write: () => void, what: string): void {
      try {
        write()
      } catch (err) {
        lastSeq = undefined
        throw idTakenOr(err, what)
      }
      lastSeq = seq
    },

    /** A lookup by `column`, whose values carry their row's seq. */
    by(column: C): (value: string) => Row | undefined {
      const legacy: Statement<[string], Row> = db.prepare(
        `SELECT ${table.select()} FROM ${name} WHERE ${column} = ? AND legacy_ids = 1`,
      )
      return (value) => {
        const row = bySeq.get(seqIn(column, value))
        return row?.[column] === value ? row : legacy.get(value)
      }
    },

    /**
     * Marks legacy the rows whose ids do not carry their seq, unless they were looked for at
     * this start count already (`starts`, meta): an older build that ran on the store since
     * wrote such rows (issue 43), and counted its start. Returns how many it marked.
     */
    adoptUnkeyed(starts: number): number {
      const checked = db
        .prepare('SELECT checked_at_start FROM id_keys WHERE name = ?')
        .pluck()
        .get(name) as number | null
      if (checked === starts) return 0
      const names = Object.keys(columns) as C[]
      const rows = db
        .prepare<[], Row>(`SELECT seq, ${names.join(', ')} FROM ${name} WHERE legacy_ids = 0`)
        .all()
      const unkeyed = rows.filter((row) =>
        names.some((column) => seqIn(column, row[column] as string) !== row.seq),
      )
      const mark = db.prepare(`UPDATE ${name} SET legacy_ids = 1 WHERE seq = ?`)
      for (const row of unkeyed) mark.run(row.seq)
      checkedAt(starts)
      return unkeyed.length
    },

    /** Records that the rows were looked for at start count `starts` (a start of this build). */
    checkedAt,
  }
}
