// From differing rows to settings: a setting is implied only where it would close the difference.
import { describe, expect, it } from 'vitest'
import { makeRow } from '../../src/probe/rows.js'
import { impliedSettings } from '../../src/probe/settings.js'
import type { Observation, Row } from '../../src/probe/types.js'

const MARCH = Date.UTC(2026, 2, 1)
const row = (id: string, setting: Row['setting'], mine: Observation, theirs: Observation) =>
  makeRow(
    { id, group: 'validation', topic: id, sent: 'curl', setting },
    { observed: mine },
    { observed: theirs },
  )

describe('implied settings', () => {
  it('switch the validation style when the target uses the other one', () => {
    const r = row(
      'v',
      'validation_errors',
      { status: 422, style: 'simple', detail: 'amount: field required' },
      { status: 422, style: 'fastapi', detail: ['body.amount missing: Field required'] },
    )
    const implied = impliedSettings([r], {}, MARCH)
    expect(implied.settings).toEqual({ validation_errors: 'fastapi' })
    expect(implied.learnNext).toEqual([])
  })

  it('leave other texts in the same style to be learnt, not set', () => {
    const r = row(
      'v',
      'validation_errors',
      { status: 422, style: 'simple', detail: 'amount: field required' },
      { status: 422, style: 'simple', detail: 'amount is required' },
    )
    const implied = impliedSettings([r], {}, MARCH)
    expect(implied.settings).toEqual({})
    expect(implied.learnNext.map((x) => x.id)).toEqual(['v'])
  })

  it('ignore rows that agree or could not be observed', () => {
    const agree = row(
      'a',
      'charge_ttl_seconds',
      { charge_ttl_seconds: 3600 },
      { charge_ttl_seconds: 3600 },
    )
    const unseen = makeRow(
      { id: 'u', group: 'charges', topic: 'u', sent: 'curl', setting: 'timezone' },
      { observed: { utc_offset: '-03:00' } },
      { unobservable: 'timed out' },
    )
    expect(impliedSettings([agree, unseen], {}, MARCH)).toMatchObject({
      settings: {},
      learnNext: [],
    })
  })

  it('read the TTL, the zone and the insufficient-balance answer', () => {
    const rows = [
      row('ttl', 'charge_ttl_seconds', { charge_ttl_seconds: 3600 }, { charge_ttl_seconds: 86400 }),
      row('tz', 'timezone', { utc_offset: '-03:00' }, { utc_offset: '+00:00' }),
      row(
        'ib',
        'insufficient_balance',
        { status: 422, detail: 'Insufficient balance' },
        { status: 200, transfer_status: 'failed', message: 'Insufficient balance' },
      ),
      row(
        'ib2',
        'insufficient_balance',
        { status: 422, detail: 'Insufficient balance' },
        { status: 422, detail: 'Saldo insuficiente' },
      ),
    ]
    const implied = impliedSettings(rows, { timezone: 'America/Sao_Paulo' }, MARCH)
    expect(implied.settings).toEqual({
      charge_ttl_seconds: 86400,
      timezone: 'UTC',
      insufficient_balance: 'failed',
    })
    expect(implied.learnNext.map((x) => x.id)).toEqual(['ib2'])
  })
})
