// The readiness book keeps what a run saw: a deleted company's part stays in the report of every
// company (not its own), a call it had in flight still lands there, a company made again under
// the same id starts afresh, and past 64 deleted companies the oldest are folded into one entry,
// their stored rows dropped, nothing lost from the report.
import { describe, expect, it } from 'vitest'
import { createBook, DELETED, NO_COMPANY } from '../../src/readiness/book.js'
import { B, F } from '../../src/readiness/catalog.js'

const example = (companyId: string, wallAt: number) => ({
  method: 'POST',
  path: '/api/v1/hub/transactions/in',
  companyId,
  at: wallAt,
  wallAt,
  seen: 'amount 10.0 (a float), accepted',
})

function book() {
  const companies = new Map<string, number>()
  const dropped: string[] = []
  const b = createBook(
    (id) => companies.get(id),
    () => undefined,
    (owner) => dropped.push(owner),
  )
  b.begin(0)
  /** A company that met charge.created and sent a lenient amount at `t`. */
  const active = (id: string, t: number) => {
    companies.set(id, t)
    const e = b.entry(id, t)!
    b.meet(id, e, B['charge.created'])
    if (!b.again(id, e, F.lenient_amount)) b.first(id, e, F.lenient_amount, example(id, t))
  }
  const remove = (id: string) => {
    companies.delete(id)
    b.forget(id)
  }
  const created = (r: ReturnType<typeof b.report>) =>
    r.behaviours.find((x) => x.id === 'charge.created')!.count
  return { b, companies, dropped, active, remove, created }
}

describe('the book of a run', () => {
  it("keeps a deleted company's part in every company's report, not in its own; a late call lands there", () => {
    const { b, active, remove, created } = book()
    active('co_a', 1)
    remove('co_a')
    const all = b.report(undefined, 10)
    expect(created(all)).toBe(1)
    expect(all.findings.map((f) => [f.id, f.count, f.example.companyId])).toEqual([
      ['lenient_amount', 1, 'co_a'],
    ])
    expect(created(b.report('co_a', 10))).toBe(0)
    // A call of its that was in flight when it went.
    const late = b.entry('co_a', 11)!
    b.meet('co_a', late, B['charge.created'])
    expect(created(b.report(undefined, 12))).toBe(2)
  })

  it('starts afresh for a company made again under the same id, keeping the old part in the run', () => {
    const { b, active, remove, created } = book()
    active('loja', 1)
    remove('loja')
    active('loja', 5)
    expect(created(b.report('loja', 10))).toBe(1)
    expect(created(b.report(undefined, 10))).toBe(2)
  })

  it('folds the oldest past 64 deleted companies into one entry: bounded, nothing lost', () => {
    const { b, dropped, active, remove, created } = book()
    for (let i = 0; i < 70; i++) active(`co_${i}`, i + 1)
    for (let i = 0; i < 70; i++) remove(`co_${i}`)
    expect(dropped).toEqual(['co_0', 'co_1', 'co_2', 'co_3', 'co_4', 'co_5'])
    const all = b.report(undefined, 100)
    expect(created(all)).toBe(70)
    expect(all.findings.map((f) => [f.id, f.count, f.example.companyId])).toEqual([
      ['lenient_amount', 70, 'co_0'],
    ])
    // The folded entry is no company's, and reset clears it with the rest.
    expect(created(b.report(DELETED, 100))).toBe(0)
    b.reset(200)
    expect(created(b.report(undefined, 300))).toBe(0)
    expect(b.report(undefined, 300).since).toBe(200)
    expect(b.entry(NO_COMPANY, 300)).toBeDefined()
  })
})
