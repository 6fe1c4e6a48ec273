// The journal is shared fairly: callers without credentials never evict a company's entries, and
// a company calling without end evicts its own, not another's (http/fair-ring.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

const own = async () =>
  (await sb.request('GET', '/_sandbox/requests?limit=100', { auth: AUTH.main })).body.data as {
    path: string
  }[]

describe('the journal, when callers without credentials fill it', () => {
  it("keeps every company's entries: 200 unauthenticated 64 KiB bodies leave them all", async () => {
    for (let i = 0; i < 5; i++)
      expect(
        (
          await sb.request('POST', '/api/v1/hub/transactions/in', {
            auth: AUTH.main,
            json: { amount: 100 + i },
          })
        ).status,
      ).toBe(200)
    const before = await own()
    expect(before).toHaveLength(5)
    const body = JSON.stringify({ amount: 1, description: 'x'.repeat(64 * 1024 - 40) })
    // Ten at a time: what a script would send.
    for (let round = 0; round < 20; round++)
      await Promise.all(
        Array.from({ length: 10 }, () =>
          sb.request('POST', '/api/v1/hub/transactions/in', {
            body,
            headers: { 'content-type': 'application/json' },
          }),
        ),
      )
    expect(await own()).toEqual(before)
    // The admin sees theirs too: the newest of them.
    const theirs = (await sb.admin('GET', '/requests?status=401&limit=5')).body.data
    expect(theirs).toHaveLength(5)
  })
})
