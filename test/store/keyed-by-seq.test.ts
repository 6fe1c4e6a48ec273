// A charge's ids and a transfer's id carry their row's seq, and the store finds them by it
// (migration 013 dropped the indexes of those ids). A store written before keeps answering for
// its rows: their ids carry no seq, and the partial indexes left for them find them, by a search,
// never a scan of the table.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createIds } from '../../src/ids.js'
import { openDb } from '../../src/store/db.js'
import { openStore, type Store } from '../../src/store/index.js'
import { migrations } from '../../src/store/migrations/index.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-keyed-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const T = 1_772_366_400_000_000
const ids = createIds('keyed')

/** A store as migration 012 left it, holding two charges and a transfer with ids of that time. */
function storeOf012(path: string) {
  const db = openDb(
    path,
    migrations.filter((m) => m.version <= 12),
  )
  db.exec(`
    INSERT INTO companies VALUES ('co', 'Co', 'Recife', 1, 1, 1);
    INSERT INTO users VALUES ('usr', 'co', 'U', '["charge","transfer"]', 5000, 1);
    INSERT INTO charges (id, company_id, user_id, amount, status, qr_code, qr_code_name,
      location_id, created_at, expires_at, due_at)
    VALUES ('087HVGqaTgxe49IswOY8RvMbSHjqw4YM', 'co', 'usr', 1000, 'pending', 'qr1', 'Co #1',
      '0hg91vteyo00skm6m3rp3qj19', 1, 9e15, 9e15),
           ('087HVGqaThAAAAAAAAAAAAAAAAAAAAAA', 'co', 'usr', 2000, 'pending', 'qr2', 'Co #2',
      '0hg91vteyo00aaaaaaaaaaaaa', 1, 9e15, 9e15);
    INSERT INTO transfers (id, company_id, user_id, amount, pix_key, pix_type, status, message,
      created_at, settle_at)
    VALUES ('E0000000020260301120000000aQfLk8', 'co', 'usr', 100, 'a@b.com', 'EMAIL', 'pending',
      'Transfer pending', 1, 5);
  `)
  db.close()
}

/** A charge at `seq`, its ids carrying the codes `store` gives that seq. */
const newCharge = (store: Store, seq: number) => ({
  id: ids.txid(T, store.charges.codes(seq).id),
  companyId: 'co',
  userId: 'usr',
  amount: 300,
  description: null,
  qrCode: 'qr3',
  qrCodeName: `Co #${seq}`,
  locationId: ids.locationId(T, store.charges.codes(seq).location, 25),
  createdAt: T,
  expiresAt: 9e15,
  autoPayAt: null,
  autoCancelAt: null,
})

describe('rows keyed by the seq their ids carry', () => {
  it('a store from before keeps finding, paying and settling its rows, beside new ones found by their key', async () => {
    const path = join(dir, 'old.db')
    storeOf012(path)
    const store = openStore(path)
    try {
      const [first, second] = [
        '087HVGqaTgxe49IswOY8RvMbSHjqw4YM',
        '087HVGqaThAAAAAAAAAAAAAAAAAAAAAA',
      ]
      expect(store.charges.byId(first!)?.amount).toBe(1000)
      expect(store.charges.byLocation('0hg91vteyo00skm6m3rp3qj19')?.id).toBe(first)
      expect(store.charges.byLocation('0hg91vteyo00aaaaaaaaaaaaa')?.id).toBe(second)
      expect(store.transfers.byId('E0000000020260301120000000aQfLk8')?.amount).toBe(100)

      const seq = store.charges.nextSeq()
      expect(seq).toBe(3)
      const charge = newCharge(store, seq)
      store.tx(() => store.charges.insert(charge, seq, false))
      expect(store.charges.byId(charge.id)?.amount).toBe(300)
      expect(store.charges.byLocation(charge.locationId)?.id).toBe(charge.id)

      // Updates by id find old and new rows alike.
      store.tx(() => {
        expect(store.charges.markPaid(first!, T, 'E1', null)).toBe(true)
        expect(store.charges.markCancelled(charge.id, T, 'cancelled')).toBe(true)
        expect(store.transfers.settle('E0000000020260301120000000aQfLk8', 'success', 'ok', T)).toBe(
          true,
        )
      })
      expect(store.charges.byId(first!)?.status).toBe('paid')
      expect(store.charges.byId(charge.id)?.status).toBe('cancelled')
      expect(store.transfers.byId('E0000000020260301120000000aQfLk8')?.status).toBe('success')
      await store.pendingCommit()
    } finally {
      await store.close()
    }
  })

  it('an id that is none of its rows finds nothing, whatever seq it seems to carry', () => {
    const store = openStore(':memory:')
    const db = store.db
    db.exec(`
      INSERT INTO companies VALUES ('co', 'Co', 'Recife', 1, 1, 1);
      INSERT INTO users VALUES ('usr', 'co', 'U', '["charge"]', 0, 1);`)
    const charge = newCharge(store, 1)
    store.tx(() => store.charges.insert(charge, 1, false))
    // The same key, another random part; the same id with another key; and texts of no shape.
    const otherRandom = charge.id.slice(0, 16) + 'ZZZZZZZZZZZZZZZZ'
    const otherKey = ids.txid(T, store.charges.codes(2).id).slice(0, 16) + charge.id.slice(16)
    for (const id of [otherRandom, otherKey, '', 'x', charge.id.toLowerCase(), `${charge.id}x`])
      expect(store.charges.byId(id), id).toBeUndefined()
    expect(store.charges.byLocation(charge.locationId.slice(0, 18) + 'zzzzzzz')).toBeUndefined()
    expect(
      store.transfers.byId(ids.endToEndId(T, '00000000', store.transfers.code(1))),
    ).toBeUndefined()
    expect(store.charges.markCancelled(otherRandom, T, 'cancelled')).toBe(false)
  })

  it('finds a row by its key, and a row from before by a search of its partial index', () => {
    const db = openDb(':memory:')
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as { detail: string }[])
        .map((r) => r.detail)
        .join(' | ')
    expect(plan('SELECT * FROM charges WHERE seq = ?')).toMatch(
      /^SEARCH charges USING INTEGER PRIMARY KEY/,
    )
    expect(plan('SELECT * FROM charges WHERE id = ? AND legacy_ids = 1')).toMatch(
      /^SEARCH charges USING INDEX charges_legacy_id /,
    )
    expect(plan('SELECT * FROM charges WHERE location_id = ? AND legacy_ids = 1')).toMatch(
      /^SEARCH charges USING INDEX charges_legacy_location /,
    )
    expect(plan('SELECT * FROM transfers WHERE id = ? AND legacy_ids = 1')).toMatch(
      /^SEARCH transfers USING INDEX transfers_legacy_id /,
    )
    // No index of a new row's ids is left to write.
    const indexed = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('charges', 'transfers') ORDER BY name",
      )
      .pluck()
      .all()
    expect(indexed).toEqual([
      'charges_company',
      'charges_end_to_end',
      'charges_legacy_id',
      'charges_legacy_location',
      'charges_pending_due',
      'charges_reused_code',
      'transfers_company',
      'transfers_legacy_id',
      'transfers_pending_due',
    ])
  })
})
