// Bounds on what a client can store through the control plane (#14): a clear 422 naming the
// limit, and lists that page in the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

const OTHER = basic('other', 'other-secret')
let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('other')] })
})
afterEach(() => sb.close())

const subscribe = (auth: string, json: Record<string, unknown>) =>
  sb.request('POST', '/_sandbox/webhooks', { auth, json })
const url = (n: number) => `http://127.0.0.1:9/${'x'.repeat(n - 'http://127.0.0.1:9/'.length)}`

describe('webhook subscriptions', () => {
  it('take a URL of at most 2,048 characters', async () => {
    expect((await subscribe(AUTH.main, { url: url(2048) })).status).toBe(201)
    expect(await subscribe(AUTH.main, { url: url(2049) })).toMatchObject({
      status: 422,
      body: { detail: 'url: must be at most 2048 characters' },
    })
    expect(await subscribe(AUTH.main, { url: url(100_000) })).toMatchObject({
      status: 422,
      body: { detail: 'url: must be at most 2048 characters' },
    })
  })

  it('refuse a URL with a user or password: it could never be sent, and would show the password in every list', async () => {
    for (const u of [
      'http://user:pass@127.0.0.1:9/hooks',
      'http://user@127.0.0.1:9/hooks',
      'https://:secret@hooks.example/x',
    ]) {
      expect(await subscribe(AUTH.main, { url: u })).toMatchObject({
        status: 422,
        body: { detail: 'url: must not contain a user or password (user:password@)' },
      })
    }
    expect((await sb.admin('GET', '/webhooks')).body.data).toEqual([])
    expect(JSON.stringify((await sb.admin('GET', '/events?limit=500')).body)).not.toContain('pass')
  })

  it("are at most 20 per company; the admin's global ones have their own 20", async () => {
    for (let i = 0; i < 20; i++)
      expect((await subscribe(AUTH.main, { url: url(40 + i) })).status).toBe(201)
    const refused = await subscribe(AUTH.main, { url: url(30) })
    expect(refused).toMatchObject({
      status: 422,
      body: { detail: 'at most 20 subscriptions per company: delete one first' },
    })
    expect(
      (await sb.admin('POST', '/webhooks', { url: url(30), company_id: 'loja-exemplo' })).status,
    ).toBe(422)
    // Another company, and the admin's global subscriptions, are not affected.
    expect((await subscribe(OTHER, { url: url(30) })).status).toBe(201)
    for (let i = 0; i < 20; i++)
      expect((await sb.admin('POST', '/webhooks', { url: url(40 + i) })).status).toBe(201)
    expect((await sb.admin('POST', '/webhooks', { url: url(30) })).body.detail).toBe(
      'at most 20 global subscriptions (admin, no company_id): delete one first',
    )
    // Deleting one makes room again.
    const first = (await sb.request('GET', '/_sandbox/webhooks?limit=1', { auth: AUTH.main })).body
      .data[0]
    expect(
      (await sb.request('DELETE', `/_sandbox/webhooks/${first.id}`, { auth: AUTH.main })).status,
    ).toBe(204)
    expect((await subscribe(AUTH.main, { url: url(30) })).status).toBe(201)
  })

  it('bound their secret and list each event once', async () => {
    const secret = 'whsec_' + Buffer.alloc(96, 7).toString('base64')
    expect(await subscribe(AUTH.main, { url: url(30), secret })).toMatchObject({
      status: 422,
      body: { detail: 'secret: must be at most 100 characters' },
    })
    const events = Array(10_000).fill('charge.paid')
    expect(await subscribe(AUTH.main, { url: url(30), events })).toMatchObject({
      status: 422,
      body: { detail: 'events: must list each event at most once (5 events)' },
    })
    expect(
      (await subscribe(AUTH.main, { url: url(30), events: ['charge.paid', 'charge.paid'] })).body
        .detail,
    ).toBe('events: must list each event at most once')
  })

  it('page in the store, oldest first: a deletion between pages skips nothing', async () => {
    const ids: string[] = []
    for (let i = 0; i < 12; i++)
      ids.push((await subscribe(AUTH.main, { url: url(40 + i) })).body.id)
    const page1 = (await sb.request('GET', '/_sandbox/webhooks?limit=5', { auth: AUTH.main })).body
    expect(page1.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 5))
    await sb.request('DELETE', `/_sandbox/webhooks/${ids[0]}`, { auth: AUTH.main })
    const page2 = (
      await sb.request('GET', `/_sandbox/webhooks?limit=5&cursor=${page1.next_cursor}`, {
        auth: AUTH.main,
      })
    ).body
    expect(page2.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(5, 10))
    const page3 = (
      await sb.request('GET', `/_sandbox/webhooks?limit=5&cursor=${page2.next_cursor}`, {
        auth: AUTH.main,
      })
    ).body
    expect(page3).toEqual({
      data: [expect.objectContaining({ id: ids[10] }), expect.objectContaining({ id: ids[11] })],
      next_cursor: null,
    })
    expect(
      (await sb.request('GET', '/_sandbox/webhooks?status=disabled', { auth: AUTH.main })).body
        .data,
    ).toEqual([])
    expect(
      (await sb.request('GET', '/_sandbox/webhooks?status=active&limit=500', { auth: AUTH.main }))
        .body.data,
    ).toHaveLength(11)
    expect((await sb.request('GET', '/_sandbox/webhooks', { auth: OTHER })).body.data).toEqual([])
  })
})

describe('other control records', () => {
  it('outcome matches, scenario rules and scenario names are bounded', async () => {
    const long = 'a'.repeat(78) + '@example.com'
    expect(
      await sb.request('POST', '/_sandbox/outcomes', {
        auth: AUTH.main,
        json: { status: 'failed', match: { pix_key: long } },
      }),
    ).toMatchObject({
      status: 422,
      body: { detail: 'match.pix_key: must be at most 77 characters' },
    })
    expect(
      (
        await sb.request('POST', '/_sandbox/outcomes', {
          auth: AUTH.main,
          json: { status: 'failed', message: 'x'.repeat(201) },
        })
      ).status,
    ).toBe(422)
    const rule = {
      when: { description_contains: 'x'.repeat(141) },
      then: { auto_pay_after_seconds: 1 },
    }
    const applied = await sb.admin('POST', '/scenarios', {
      document: { rules: { charges: [rule] } },
    })
    expect(applied.status).toBe(422)
    expect(applied.body.detail).toContain('must be at most 140 characters')
    const transferRule = { when: { pix_key: long }, then: { status: 'failed' } }
    expect(
      (await sb.admin('POST', '/scenarios', { document: { rules: { transfers: [transferRule] } } }))
        .body.detail,
    ).toContain('must be at most 77 characters')
    expect((await sb.admin('POST', '/scenarios', { name: 'x'.repeat(201) })).status).toBe(422)
    expect((await sb.admin('POST', '/reset', { scenario: 'x'.repeat(201) })).status).toBe(422)
  })

  it.each([
    ['outcomes', { status: 'failed', times: 5 }],
    ['faults', { operation: 'transfer', status: 503, times: 5 }],
  ] as const)(
    "queued %s are at most 1,000 per company; the admin's global ones have their own 1,000",
    async (what, body) => {
      const post = (auth: string, json: Record<string, unknown>) =>
        sb.request('POST', `/_sandbox/${what}`, { auth, json })
      // The first 999 straight through the store, as the control plane would queue them.
      const { store, clock } = sb.sandbox
      const queue = what === 'outcomes' ? store.outcomes : store.faults
      const row = (companyId: string | null) =>
        what === 'outcomes'
          ? store.outcomes.add({
              companyId,
              outcome: { status: 'failed' },
              match: {},
              remaining: 5,
              createdAt: clock.now(),
            })
          : store.faults.add({
              companyId,
              operation: 'transfer',
              status: 503,
              delayMs: 0,
              remaining: 5,
              createdAt: clock.now(),
              retryAfter: null,
              after: false,
              drop: false,
            })
      store.tx(() => {
        for (let i = 0; i < 999; i++) row('loja-exemplo'), row(null)
      })
      expect((await post(AUTH.main, body)).status).toBe(201)
      const refused = {
        status: 422,
        body: {
          detail: `at most 1000 ${what} queued per company: clear them (DELETE /_sandbox/${what}) or let some be used`,
        },
      }
      expect(await post(AUTH.main, body)).toMatchObject(refused)
      expect(
        await sb.admin('POST', `/${what}`, { ...body, company_id: 'loja-exemplo' }),
      ).toMatchObject(refused)
      expect(queue.count('loja-exemplo')).toBe(1000)
      // Another company, and the admin's global rows, are not affected.
      expect((await post(OTHER, body)).status).toBe(201)
      expect((await sb.admin('POST', `/${what}`, body)).status).toBe(201)
      expect((await sb.admin('POST', `/${what}`, body)).body.detail).toBe(
        `at most 1000 global ${what} (admin, no company_id): clear them (DELETE /_sandbox/${what}) or let some be used`,
      )
      // Clearing makes room again.
      expect((await sb.request('DELETE', `/_sandbox/${what}`, { auth: AUTH.main })).status).toBe(
        204,
      )
      expect((await post(AUTH.main, body)).status).toBe(201)
    },
  )

  it('queued outcomes and faults page in the store, oldest first', async () => {
    const ids: number[] = []
    for (let i = 0; i < 7; i++)
      ids.push(
        (
          await sb.request('POST', '/_sandbox/outcomes', {
            auth: AUTH.main,
            json: { status: 'failed', match: { amount: 100 + i } },
          })
        ).body.id,
      )
    await sb.request('POST', '/_sandbox/outcomes', { auth: OTHER, json: { status: 'failed' } })
    const seen: number[] = []
    let cursor = ''
    for (;;) {
      const page = (
        await sb.request('GET', `/_sandbox/outcomes?limit=3${cursor}`, { auth: AUTH.main })
      ).body
      seen.push(...page.data.map((o: { id: number }) => o.id))
      if (!page.next_cursor) break
      cursor = `&cursor=${page.next_cursor}`
    }
    expect(seen).toEqual(ids)
    for (let i = 0; i < 4; i++)
      await sb.admin('POST', '/faults', { operation: 'charge', delay_ms: 1, times: 1 + i })
    const faults = (await sb.admin('GET', '/faults?limit=3')).body
    expect(faults.data.map((f: { times: number }) => f.times)).toEqual([1, 2, 3])
    expect(
      (await sb.admin('GET', `/faults?limit=3&cursor=${faults.next_cursor}`)).body,
    ).toMatchObject({ data: [{ times: 4 }], next_cursor: null })
  })
})

describe('delivery attempts', () => {
  it('a delivery keeps its newest 100 attempts, however often it is retried by hand', async () => {
    const sub = (await subscribe(AUTH.main, { url: url(30) })).body
    const test = (
      await sb.request('POST', `/_sandbox/webhooks/${sub.id}/test`, { auth: AUTH.main })
    ).body
    const { store } = sb.sandbox
    for (let i = 0; i < 150; i++) {
      store.webhooks.record(
        test.id,
        { at: i, statusCode: 500, latencyMs: 1, error: `attempt ${i}`, chaos: null, headers: null },
        {
          status: 'pending',
          nextAttemptAt: null,
          deliveredAt: null,
          lastError: null,
          counted: true,
        },
      )
    }
    const attempts = store.webhooks.attempts(test.id)
    expect(attempts).toHaveLength(100)
    expect(attempts.at(-1)!.error).toBe('attempt 149')
    expect(store.webhooks.delivery(test.id)!.attempts).toBe(151)
  })
})
