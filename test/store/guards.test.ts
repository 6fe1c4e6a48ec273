// Invariants 1 and 5 at the layer DESIGN.md names: the SQL statements themselves. The use cases
// check in JavaScript first (and one thread never interleaves two of them), so a test over HTTP
// only ever exercises that check. Here the guarded statements are called directly with the
// states that check would have refused, as a second writer racing past it would.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, T0, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const USER = 'loja-exemplo-user'
const entries = () =>
  sb.sandbox.store.db
    .prepare('SELECT count(*) FROM ledger_entries WHERE user_id = ?')
    .pluck()
    .get(USER)

describe('invariant 1: the ledger statement refuses a debit beyond the balance', () => {
  it('answers null and changes nothing, rather than relying on the CHECK constraint', () => {
    const { ledger } = sb.sandbox.store
    const balance = ledger.balance(USER)!
    const before = entries()
    // One cent more than there is: the use case's own check would never have asked.
    expect(
      sb.sandbox.store.tx(() => ledger.apply(USER, -(balance + 1), 'transfer_debit', 'T-over', T0)),
    ).toBeNull()
    expect(ledger.balance(USER)).toBe(balance)
    expect(entries()).toBe(before)
    expect(ledger.sumOfEntries(USER)).toBe(balance)
  })

  it('lets a debit of exactly the balance through, to 0, with its entry', () => {
    const { ledger } = sb.sandbox.store
    const balance = ledger.balance(USER)!
    expect(
      sb.sandbox.store.tx(() => ledger.apply(USER, -balance, 'transfer_debit', 'T-all', T0)),
    ).toBe(0)
    expect(ledger.entries(USER, 1)).toEqual([
      { amount: -balance, kind: 'transfer_debit', reference: 'T-all', at: T0, balanceAfter: 0 },
    ])
    expect(ledger.sumOfEntries(USER)).toBe(0)
  })

  it('refuses the second of two debits that were each checked against the same balance', () => {
    const { ledger } = sb.sandbox.store
    const balance = ledger.balance(USER)!
    // Both "checked" against the balance read before either ran: each alone would fit.
    const half = Math.floor(balance / 2) + 1
    expect(sb.sandbox.store.tx(() => ledger.apply(USER, -half, 'transfer_debit', 'T-1', T0))).toBe(
      balance - half,
    )
    expect(
      sb.sandbox.store.tx(() => ledger.apply(USER, -half, 'transfer_debit', 'T-2', T0)),
    ).toBeNull()
    expect(ledger.balance(USER)).toBe(balance - half)
    expect(ledger.sumOfEntries(USER)).toBe(balance - half)
  })
})

describe('invariant 5: the charge statement refuses a second payment', () => {
  async function paidCharge() {
    const { body } = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1500 },
    })
    const { charges } = sb.sandbox.store
    expect(
      sb.sandbox.store.tx(() =>
        charges.markPaid(body.transaction_id, T0 + 1, 'E-first', {
          name: 'Ana',
          document: '52998224725',
        }),
      ),
    ).toBe(true)
    return body.transaction_id as string
  }

  it('markPaid of a paid charge answers false and keeps the first payment', async () => {
    const id = await paidCharge()
    const { charges } = sb.sandbox.store
    const first = charges.byId(id)!
    expect(first).toMatchObject({
      status: 'paid',
      paidAt: T0 + 1,
      endToEndId: 'E-first',
      revision: 1,
    })
    expect(sb.sandbox.store.tx(() => charges.markPaid(id, T0 + 2, 'E-second', null))).toBe(false)
    expect(charges.byId(id)).toEqual(first)
  })

  it('markCancelled of a paid charge answers false and leaves it paid', async () => {
    const id = await paidCharge()
    const { charges } = sb.sandbox.store
    const first = charges.byId(id)!
    expect(sb.sandbox.store.tx(() => charges.markCancelled(id, T0 + 2, 'expired'))).toBe(false)
    expect(charges.byId(id)).toEqual(first)
  })

  it('markPaid of a cancelled charge answers false', async () => {
    const { body } = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1500 },
    })
    const { charges } = sb.sandbox.store
    expect(
      sb.sandbox.store.tx(() => charges.markCancelled(body.transaction_id, T0 + 1, 'cancelled')),
    ).toBe(true)
    expect(
      sb.sandbox.store.tx(() => charges.markPaid(body.transaction_id, T0 + 2, 'E-late', null)),
    ).toBe(false)
    expect(charges.byId(body.transaction_id)).toMatchObject({
      status: 'cancelled',
      paidAt: null,
      endToEndId: null,
    })
  })
})
