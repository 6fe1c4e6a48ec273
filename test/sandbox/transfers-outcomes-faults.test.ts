// Settling transfers, queued outcomes and injected faults (before the write, or after it: the lost answer).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  AUTH,
  basic,
  rowCounts,
  storeSnapshot,
  startTestSandbox,
  tenantDoc,
  type TestSandbox,
} from '../harness.js'

let sb: TestSandbox
beforeEach(async () => {
  sb = await startTestSandbox()
  sb.apply({ companies: [tenantDoc('other', { balance: 100_000 })] })
})
afterEach(() => sb.close())

const OTHER = basic('other', 'other-secret')
const USER = 'loja-exemplo-user'
const balance = (u = USER) => sb.sandbox.store.ledger.balance(u)!
const send = (
  json: Record<string, unknown> = {},
  auth = AUTH.main,
  headers: Record<string, string> = {},
) =>
  sb.request('POST', '/api/v1/hub/transactions/out', {
    auth,
    json: { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL', ...json },
    headers,
  })

describe('POST /_sandbox/transfers/{id}/settle', () => {
  it('a pending transfer settled as failed refunds exactly its amount, with a reversing entry', async () => {
    const start = balance()
    const t = (await send({ amount: 4321 }, AUTH.main, { 'x-sandbox-outcome': 'pending' })).body
    expect(balance()).toBe(start - 4321)
    const res = await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, {
      status: 'failed',
      message: 'Recusada pelo banco',
    })
    expect(res.body).toMatchObject({ status: 'failed', message: 'Recusada pelo banco' })
    expect(balance()).toBe(start)
    const entries = (await sb.admin('GET', `/users/${USER}/balance`)).body.entries
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({
        amount: 4321,
        kind: 'transfer_refund',
        reference: t.transaction_id,
      }),
      expect.objectContaining({
        amount: -4321,
        kind: 'transfer_debit',
        reference: t.transaction_id,
      }),
    ])
  })

  it('settled as success keeps the debit; a settled transfer answers 409', async () => {
    const t = (await send({}, AUTH.main, { 'x-sandbox-outcome': 'pending' })).body
    const after = balance()
    expect(
      (await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, { status: 'success' })).body
        .status,
    ).toBe('success')
    expect(balance()).toBe(after)
    expect(
      (await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, { status: 'failed' }))
        .status,
    ).toBe(409)
    expect(balance()).toBe(after)
  })

  it('refuses bad bodies and unknown ids, changing nothing', async () => {
    const t = (await send({}, AUTH.main, { 'x-sandbox-outcome': 'pending' })).body
    const before = storeSnapshot(sb)
    expect(
      (await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, { status: 'pending' }))
        .status,
    ).toBe(422)
    expect((await sb.admin('POST', `/transfers/${t.transaction_id}/settle`, {})).status).toBe(422)
    expect((await sb.admin('POST', '/transfers/E000/settle', { status: 'success' })).status).toBe(
      404,
    )
    expect(storeSnapshot(sb)).toEqual(before)
  })

  it('lists transfers newest first with cursor pagination and a status filter', async () => {
    for (let i = 0; i < 5; i++) await send({ amount: 100 + i })
    await send({ amount: 666 })
    const first = await sb.admin('GET', '/transfers?company_id=loja-exemplo&limit=2')
    expect(first.body.data.map((t: { amount: number }) => t.amount)).toEqual([666, 104])
    const second = await sb.admin(
      'GET',
      `/transfers?company_id=loja-exemplo&limit=2&cursor=${first.body.next_cursor}`,
    )
    expect(second.body.data.map((t: { amount: number }) => t.amount)).toEqual([103, 102])
    expect((await sb.admin('GET', '/transfers?status=failed')).body.data).toHaveLength(1)
    expect((await sb.admin('GET', '/transfers?limit=501')).status).toBe(422)
  })
})

describe('queued outcomes', () => {
  it('apply to the next matching transfers, counted down by times', async () => {
    expect(
      (await sb.admin('POST', '/outcomes', { status: 'failed', message: 'Fila cheia', times: 2 }))
        .status,
    ).toBe(201)
    expect((await send()).body).toMatchObject({ status: 'failed', message: 'Fila cheia' })
    expect((await send({}, OTHER)).body.status).toBe('failed')
    expect((await send()).body.status).toBe('success')
  })

  it('match on key, type and amount', async () => {
    await sb.admin('POST', '/outcomes', {
      status: 'pending',
      match: { amount: 1234 },
      settle_after_seconds: 5,
      final_status: 'failed',
    })
    expect((await send({ amount: 1000 })).body.status).toBe('success')
    const t = (await send({ amount: 1234 })).body
    expect(t.status).toBe('pending')
    await sb.admin('POST', '/clock/advance', { seconds: 5 })
    expect((await sb.admin('GET', `/transfers/${t.transaction_id}`)).body.status).toBe('failed')
  })

  it('are not used up by a transfer that picks its outcome by header', async () => {
    await sb.admin('POST', '/outcomes', { status: 'failed' })
    expect((await send({}, AUTH.main, { 'x-sandbox-outcome': 'success' })).body.status).toBe(
      'success',
    )
    expect((await send()).body.status).toBe('failed')
  })

  it('posted with company credentials apply to that company only', async () => {
    await sb.request('POST', '/_sandbox/outcomes', { auth: OTHER, json: { status: 'failed' } })
    expect((await send()).body.status).toBe('success')
    expect((await send({}, OTHER)).body.status).toBe('failed')
  })

  it("a company's own and the admin's global outcomes are taken oldest first", async () => {
    await sb.admin('POST', '/outcomes', { status: 'failed', message: 'global 1' })
    await sb.request('POST', '/_sandbox/outcomes', {
      auth: AUTH.main,
      json: { status: 'failed', message: 'own' },
    })
    await sb.admin('POST', '/outcomes', { status: 'failed', message: 'global 2' })
    await sb.request('POST', '/_sandbox/outcomes', {
      auth: OTHER,
      json: { status: 'pending', message: 'theirs' },
    })
    expect((await send()).body.message).toBe('global 1')
    expect((await send()).body.message).toBe('own')
    expect((await send()).body.message).toBe('global 2')
    expect((await send()).body.status).toBe('success')
    expect((await send({}, OTHER)).body.message).toBe('theirs')
  })

  it('can be listed and cleared', async () => {
    await sb.admin('POST', '/outcomes', { status: 'failed', times: 3 })
    expect((await sb.admin('GET', '/outcomes')).body.data).toEqual([
      expect.objectContaining({ status: 'failed', times: 3, company_id: null }),
    ])
    expect((await sb.admin('DELETE', '/outcomes')).status).toBe(204)
    expect((await send()).body.status).toBe('success')
  })

  it('refuses bad bodies and unknown companies', async () => {
    for (const body of [
      {},
      { status: 'ok' },
      { status: 'failed', times: 0 },
      { status: 'failed', match: { pix_type: 'X' } },
      { status: 'failed', extra: 1 },
    ]) {
      expect((await sb.admin('POST', '/outcomes', body)).status).toBe(422)
    }
    expect(
      (await sb.admin('POST', '/outcomes', { status: 'failed', company_id: 'ghost' })).status,
    ).toBe(404)
    expect((await sb.admin('GET', '/outcomes')).body.data).toEqual([])
  })
})

describe('injected faults', () => {
  it("fail the contract's operation with the chosen status, times times", async () => {
    await sb.admin('POST', '/faults', { operation: 'charge', status: 503, times: 1 })
    const res = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 100 },
    })
    expect(res).toMatchObject({ status: 503, body: { detail: 'Service temporarily unavailable' } })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(200)
  })

  it('add latency', async () => {
    await sb.admin('POST', '/faults', { operation: 'company', delay_ms: 300 })
    const started = performance.now()
    expect((await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(200)
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
  })

  it('write nothing when they fail a request', async () => {
    await sb.admin('POST', '/faults', { operation: 'transfer', status: 500 })
    const before = storeSnapshot(sb)
    expect(await send()).toMatchObject({ status: 500, body: { detail: 'Internal server error' } })
    expect(storeSnapshot(sb)).toEqual(before)
    // Without `times`, a fault is never used up.
    expect((await send()).status).toBe(500)
    expect((await sb.admin('GET', '/faults')).body.data).toHaveLength(1)
  })

  it("a company's own and the admin's global faults strike oldest first, each on its own operation", async () => {
    const charge = () =>
      sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json: { amount: 100 } })
    await sb.admin('POST', '/faults', { operation: 'transfer', status: 503, times: 1 })
    await sb.request('POST', '/_sandbox/faults', {
      auth: AUTH.main,
      json: { operation: 'charge', status: 501, times: 1 },
    })
    await sb.request('POST', '/_sandbox/faults', {
      auth: AUTH.main,
      json: { operation: 'transfer', status: 500, times: 1 },
    })
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      status: 501,
      times: 1,
      company_id: 'other',
    })
    expect((await send()).status).toBe(503)
    expect((await send()).status).toBe(500)
    expect((await send()).status).toBe(200)
    expect((await charge()).status).toBe(501)
    expect((await charge()).status).toBe(200)
    expect((await send({}, OTHER)).status).toBe(501)
  })

  it('posted by a company hit only that company; cleared by DELETE', async () => {
    await sb.request('POST', '/_sandbox/faults', {
      auth: OTHER,
      json: { operation: 'transfer', status: 500 },
    })
    expect((await send()).status).toBe(200)
    expect((await send({}, OTHER)).status).toBe(500)
    await sb.request('DELETE', '/_sandbox/faults', { auth: OTHER })
    expect((await send({}, OTHER)).status).toBe(200)
  })

  it('refuse a fault that does nothing, an unknown operation, a status outside 500/501/503', async () => {
    for (const body of [
      { operation: 'charge' },
      { operation: 'refund', status: 500 },
      { operation: 'charge', status: 404 },
      { operation: 'charge', delay_ms: -1 },
    ]) {
      expect((await sb.admin('POST', '/faults', body)).status).toBe(422)
    }
    expect((await sb.admin('GET', '/faults')).body.data).toEqual([])
  })
})

describe('faults after the write: the lost answer', () => {
  const transfers = () =>
    sb.sandbox.store.db
      .prepare('SELECT id, amount, status FROM transfers ORDER BY rowid')
      .all() as { id: string; amount: number; status: string }[]

  it('when "after": the transfer exists and the balance moved, then the call answers the fault\'s status', async () => {
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      status: 500,
      when: 'after',
      times: 1,
    })
    const before = balance()
    expect(await send({ amount: 1234 })).toMatchObject({
      status: 500,
      body: { detail: 'Internal server error' },
    })
    expect(transfers()).toEqual([
      { id: expect.stringMatching(/^E/), amount: 1234, status: 'success' },
    ])
    expect(balance()).toBe(before - 1234)
    const ledger = sb.sandbox.store.ledger.entries(USER)[0]!
    expect(ledger).toMatchObject({
      amount: -1234,
      kind: 'transfer_debit',
      reference: transfers()[0]!.id,
    })
    // Used up: the next one is answered.
    expect((await send({ amount: 1234 })).status).toBe(200)
  })

  it('a 503 after the write carries its Retry-After; a charge is created before its 500', async () => {
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      status: 503,
      when: 'after',
      retry_after: 7,
      times: 1,
    })
    const res = await send()
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '7'])
    await sb.admin('POST', '/faults', { operation: 'charge', status: 500, when: 'after', times: 1 })
    expect(
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount: 100 },
        })
      ).status,
    ).toBe(500)
    expect(rowCounts(sb)).toMatchObject({ charges: 1, transfers: 1 })
  })

  it('drop: the transfer exists, and the connection closes without any answer', async () => {
    await sb.admin('POST', '/faults', { operation: 'transfer', drop: true, times: 1 })
    const before = balance()
    const err = await send({ amount: 777_0 }).then(
      () => null,
      (e: Error & { cause?: { code?: string } }) => e.cause?.code ?? e.message,
    )
    expect(err).toBe('UND_ERR_SOCKET')
    expect(transfers()).toEqual([{ id: expect.any(String), amount: 7770, status: 'success' }])
    expect(balance()).toBe(before - 7770)
    // The journal says the client got nothing, beside what the call would have answered.
    const [lost] = (await sb.admin('GET', '/requests?path=/api/v1/hub/transactions/out&limit=1'))
      .body.data
    expect(lost).toMatchObject({
      status: 200,
      dropped: true,
      response: { body: { status: 'success' } },
    })
    expect((await send()).status).toBe(200)
    const [answered] = (
      await sb.admin('GET', '/requests?path=/api/v1/hub/transactions/out&limit=1')
    ).body.data
    expect(answered).toMatchObject({ status: 200, dropped: false })
  })

  it('with delay_ms, holds the answer after the write: a client that gives up meanwhile has its transfer made anyway', async () => {
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      delay_ms: 600,
      when: 'after',
      times: 1,
    })
    const gone = new AbortController()
    setTimeout(() => gone.abort(), 150)
    const sent = fetch(`${sb.url}/api/v1/hub/transactions/out`, {
      method: 'POST',
      headers: { authorization: AUTH.main, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 4321, pix_key: 'maria@example.com', pix_type: 'EMAIL' }),
      signal: gone.signal,
    })
    await expect(sent).rejects.toThrow()
    // Written before the hold, not after it.
    expect(transfers()).toEqual([{ id: expect.any(String), amount: 4321, status: 'success' }])
  })

  it('a call the contract refuses is answered its refusal, and writes nothing', async () => {
    await sb.admin('POST', '/faults', {
      operation: 'transfer',
      status: 500,
      when: 'after',
      times: 1,
    })
    const before = storeSnapshot(sb)
    expect(await send({ amount: 1000 }, AUTH.emptyBalance)).toMatchObject({
      status: 422,
      body: { detail: 'Insufficient balance' },
    })
    expect(storeSnapshot(sb)).toEqual({
      ...before,
      tables: { ...(before.tables as object), faults: [] },
    })
  })

  it('are listed with when and drop, and refused when they make no sense', async () => {
    await sb.admin('POST', '/faults', { operation: 'transfer', drop: true })
    await sb.admin('POST', '/faults', { operation: 'charge', status: 501 })
    expect(
      (await sb.admin('GET', '/faults')).body.data.map(
        (f: { when: string; drop: boolean; status: number | null }) => [f.when, f.drop, f.status],
      ),
    ).toEqual([
      ['after', true, null],
      ['before', false, 501],
    ])
    for (const [body, detail] of [
      [
        { operation: 'transfer', drop: true, status: 500 },
        'drop: a dropped connection answers nothing: give drop or a status, not both',
      ],
      [{ operation: 'transfer', drop: false }, 'drop: Invalid input: expected true'],
      [
        { operation: 'transfer', when: 'later', status: 500 },
        'when: Invalid option: expected one of "before"|"after"',
      ],
      [{ operation: 'transfer', when: 'after' }, 'body: give a status, a delay_ms, or drop'],
    ] as const) {
      expect(await sb.admin('POST', '/faults', body)).toMatchObject({
        status: 422,
        body: { detail },
      })
    }
  })
})

describe('lists of queued things', () => {
  it('take limit and cursor like every list', async () => {
    for (let i = 0; i < 3; i++)
      await sb.admin('POST', '/outcomes', { status: 'failed', match: { amount: 100 + i } })
    const first = await sb.admin('GET', '/outcomes?limit=2')
    expect(first.body.data.map((o: { match: { amount: number } }) => o.match.amount)).toEqual([
      100, 101,
    ])
    const rest = await sb.admin('GET', `/outcomes?limit=2&cursor=${first.body.next_cursor}`)
    expect(rest.body).toMatchObject({
      data: [expect.objectContaining({ match: { amount: 102 } })],
      next_cursor: null,
    })
    expect((await sb.admin('GET', '/faults?limit=0')).status).toBe(422)
  })
})
