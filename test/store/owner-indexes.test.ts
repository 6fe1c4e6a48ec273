// The indexes that list an owner's rows in the order they were written are on the owner alone
// (migration 012): the rowid (`seq`) ends every index entry already. What a reader would notice
// if SQLite could not use them so: a company's page of events, charges or transfers, or a user's
// ledger, read by scanning or sorting every row of the table. Each listing the store runs is
// planned here as a search of its owner's index, in index order (no sort).
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'

const LISTINGS: [index: string, sql: string][] = [
  ['events_company', 'SELECT * FROM events WHERE company_id = ? ORDER BY seq DESC LIMIT 10'],
  ['events_company', 'SELECT * FROM events WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT 10'],
  [
    'events_company',
    'SELECT * FROM events WHERE company_id = ? AND type = ? AND seq < ? ORDER BY seq DESC LIMIT 10',
  ],
  [
    'events_company',
    'SELECT seq FROM events WHERE company_id = ? ORDER BY seq DESC LIMIT 1 OFFSET 20000',
  ],
  [
    'charges_company',
    'SELECT * FROM charges WHERE company_id = ? AND status = ? AND seq < ? ORDER BY seq DESC LIMIT 10',
  ],
  [
    'transfers_company',
    'SELECT * FROM transfers WHERE company_id = ? AND seq < ? ORDER BY seq DESC LIMIT 10',
  ],
  ['ledger_user', 'SELECT * FROM ledger_entries WHERE user_id = ? ORDER BY seq DESC LIMIT 10'],
]

describe('owner indexes', () => {
  const db = openDb(':memory:')

  it('are on the owner alone', () => {
    const sqlOf = (name: string) =>
      db.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').pluck().get(name)
    expect(sqlOf('events_company')).toMatch(/ON events\(company_id\)$/)
    expect(sqlOf('charges_company')).toMatch(/ON charges\(company_id\)$/)
    expect(sqlOf('transfers_company')).toMatch(/ON transfers\(company_id\)$/)
    expect(sqlOf('ledger_user')).toMatch(/ON ledger_entries\(user_id\)$/)
  })

  it.each(LISTINGS)('list an owner through %s, in index order: %s', (index, sql) => {
    const params = (sql.match(/\?/g) ?? []).map(() => 1)
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ')
    expect(plan).toMatch(new RegExp(`^SEARCH \\w+ USING (COVERING )?INDEX ${index} `))
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN/)
  })
})
