// Every finding is produced by a minimal client (or receiver) doing the wrong thing, and not by
// one doing the right thing nearby: a report never cries wolf. Each case runs on a fresh sandbox
// (a reset); the finding's example names the call and carries no secret.
import http from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FINDINGS, type FindingId } from '../../src/readiness/catalog.js'
import { eventually } from '../hang.js'
import { AUTH, request, startTestSandbox, type TestSandbox } from '../harness.js'
import { startHookReceiver, type Behaviour } from './receivers.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())
beforeEach(async () => expect((await sb.admin('POST', '/reset', {})).status).toBe(200))

const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' }
const TRANSFER = {
  amount: 1000,
  pix_key: 'maria@example.com',
  pix_type: 'EMAIL',
  description: 'Pedido 7',
}

/** A request with exactly these headers (fetch adds accept and content-type of its own). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${sb.url}${path}`,
      { method, headers: { authorization: AUTH.main, ...headers } },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode!))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
const post = (
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
  auth = AUTH.main,
) =>
  request(sb.url, 'POST', `/api/v1${path}`, {
    auth,
    body: JSON.stringify(json),
    headers: { ...JSON_HEADERS, ...headers },
  })
const control = async (method: string, path: string, json?: unknown) => {
  const r = await sb.admin(method, path, json)
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300)
  return r.body
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits until a delivery of `type` was delivered (its acknowledgement recorded), and answers its body's data. */
const delivered = (type: string): Promise<Record<string, unknown>> =>
  eventually(async () => {
    const page = await control('GET', '/webhooks/deliveries?status=delivered')
    return page.data.find((x: { event_type: string }) => x.event_type === type)?.body.data
  }, `no ${type} delivered`)

/** Waits until a delivery of `type` had an attempt answered `status` (recorded after readiness saw it). */
const attempted = (type: string, status: number): Promise<true> =>
  eventually(async () => {
    const page = await control('GET', '/webhooks/deliveries')
    const codes = page.data
      .filter((d: { event_type: string }) => d.event_type === type)
      .flatMap((d: { attempts: { status_code: number | null }[] }) =>
        d.attempts.map((a) => a.status_code),
      )
    return codes.includes(status)
  }, `no ${type} answered ${status}`)

/** A payout whose answer is lost (a 500 after the write), reconciled from its webhook once the receiver took it. */
async function lostThenReconciled(): Promise<void> {
  await control('POST', '/faults', { operation: 'transfer', status: 500, when: 'after', times: 1 })
  expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(500)
  expect(await delivered('transfer.succeeded')).toMatchObject({ description: 'Pedido 7' })
}

/** Runs `test` against a receiver of that behaviour, subscribed for every company. */
async function withReceiver(
  behaviour: Behaviour,
  test: (id: string) => Promise<unknown>,
  delayMs = 0,
): Promise<void> {
  const rx = await startHookReceiver(behaviour)
  rx.delayMs = delayMs
  try {
    const hook = await control('POST', '/webhooks', { url: rx.url })
    rx.secret = hook.secret
    await test(hook.id)
  } finally {
    await rx.close()
  }
}

interface Case {
  wrong: () => Promise<unknown>
  correct: () => Promise<unknown>
  /** Whose report shows it; null: the admin's only (no company). */
  company: string | null
}

const CASES: Partial<Record<FindingId, Case>> = {
  production_credentials: {
    wrong: () => post('/hub/transactions/in', { amount: 1000 }, {}, AUTH.production),
    // A production client id with a wrong secret is not production keys; the sandbox's own keys are right.
    correct: async () => {
      await post(
        '/hub/transactions/in',
        { amount: 1000 },
        {},
        `Basic ${Buffer.from('production-client:guess').toString('base64')}`,
      )
      await post('/hub/transactions/in', { amount: 1000 })
    },
    // They did not authenticate: the admin's report only, where no one else can plant it.
    company: null,
  },
  missing_content_type: {
    wrong: async () => {
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { accept: 'application/json' },
        '{"amount": 1000}',
      )
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { accept: 'application/json', 'content-type': 'text/plain' },
        '{"amount": 1000}',
      )
    },
    correct: async () => {
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { accept: 'application/json', 'content-type': 'application/json; charset=utf-8' },
        '{"amount": 1000}',
      )
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { accept: 'application/json', 'Content-Type': 'Application/JSON' },
        '{"amount": 1000}',
      )
      // Any application/<x>+json is JSON to the real service, and answered as such.
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { accept: 'application/json', 'content-type': 'application/vnd.api+json' },
        '{"amount": 1000}',
      )
      // No body, nothing to type (a 422 of its own).
      await raw('POST', '/api/v1/hub/transactions/in', { accept: 'application/json' })
    },
    company: 'loja-exemplo',
  },
  paid_twice: {
    // The answer of a transfer that went through is lost, and the client sends it again with a new description.
    wrong: async () => {
      await control('POST', '/faults', {
        operation: 'transfer',
        status: 500,
        when: 'after',
        times: 1,
      })
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(500)
      expect(
        (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 7, tentativa 2' }))
          .status,
      ).toBe(200)
    },
    correct: async () => {
      // After a lost answer: another payment (another amount), not the same one again.
      await control('POST', '/faults', {
        operation: 'transfer',
        status: 500,
        when: 'after',
        times: 1,
      })
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(500)
      expect((await post('/hub/transactions/out', { ...TRANSFER, amount: 1001 })).status).toBe(200)
      // The next test's payment, after a step of its own (a control call no retry loop makes).
      await control('POST', '/faults', { operation: 'transfer', drop: true, times: 1 })
      await post('/hub/transactions/out', { ...TRANSFER, amount: 1002 }).catch(() => undefined)
      await control('DELETE', '/outcomes')
      expect((await post('/hub/transactions/out', { ...TRANSFER, amount: 1002 })).status).toBe(200)
      // Sent beside the one whose answer is lost, not after it.
      await control('POST', '/faults', {
        operation: 'transfer',
        status: 500,
        when: 'after',
        delay_ms: 1500,
        times: 1,
      })
      const [first, second] = await Promise.all([
        post('/hub/transactions/out', { ...TRANSFER, amount: 1003 }),
        sleep(100).then(() => post('/hub/transactions/out', { ...TRANSFER, amount: 1003 })),
      ])
      expect([first.status, second.status]).toEqual([500, 200])
      // Nothing went through (a fault before the write): resending another description pays once.
      await control('POST', '/faults', { operation: 'transfer', status: 500, times: 1 })
      expect((await post('/hub/transactions/out', { ...TRANSFER, amount: 1004 })).status).toBe(500)
      expect(
        (
          await post('/hub/transactions/out', {
            ...TRANSFER,
            amount: 1004,
            description: 'Pedido 12',
          })
        ).status,
      ).toBe(200)
    },
    company: 'loja-exemplo',
  },
  paid_twice_unconfirmed: {
    // Told by its webhook that the payout went through, the client pays the same order again
    // under a new description: the sandbox cannot tell it from a new order, and says so.
    wrong: () =>
      withReceiver('correct', async () => {
        await lostThenReconciled()
        expect(
          (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 7 (de novo)' }))
            .status,
        ).toBe(200)
      }),
    // Reconciled, and the next test (a step of its own) pays the same supplier for a new order.
    correct: () =>
      withReceiver('correct', async () => {
        await lostThenReconciled()
        await control('DELETE', '/faults')
        expect(
          (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 8' })).status,
        ).toBe(200)
      }),
    company: 'loja-exemplo',
  },
  retried_permanent_error: {
    wrong: async () => {
      expect((await post('/hub/transactions/out', TRANSFER, {}, AUTH.chargesOnly)).status).toBe(501)
      expect((await post('/hub/transactions/out', TRANSFER, {}, AUTH.chargesOnly)).status).toBe(501)
    },
    correct: async () => {
      // Each once; and sent again after the setup changed (its Providers given back).
      expect((await post('/hub/transactions/out', TRANSFER, {}, AUTH.chargesOnly)).status).toBe(501)
      expect(
        (await post('/hub/transactions/in', { amount: 1000 }, {}, AUTH.noProvider)).status,
      ).toBe(422)
      await control('PUT', '/users/loja-exemplo-no-provider/providers', {
        in: { name: 'Banco Exemplo', operations: ['charge'] },
      })
      expect(
        (await post('/hub/transactions/in', { amount: 1000 }, {}, AUTH.noProvider)).status,
      ).toBe(200)
      // The next test, after a step of its own, sends the call a one-shot fault refused.
      await control('POST', '/faults', { operation: 'charge', status: 501, times: 1 })
      expect((await post('/hub/transactions/in', { amount: 1000 })).status).toBe(501)
      await control('DELETE', '/faults')
      expect((await post('/hub/transactions/in', { amount: 1000 })).status).toBe(200)
      // Another amount is another call.
      expect(
        (await post('/hub/transactions/out', { ...TRANSFER, amount: 1001 }, {}, AUTH.chargesOnly))
          .status,
      ).toBe(501)
    },
    company: 'loja-exemplo',
  },
  receiver_rejects_valid_signature: {
    wrong: () => withReceiver('literal-key', (id) => control('POST', `/webhooks/${id}/test`)),
    correct: () => withReceiver('correct', (id) => control('POST', `/webhooks/${id}/test`)),
    company: null,
  },
  receiver_rejects_unknown_type: {
    // It takes charge.paid, and refuses webhook.test and the check's unknown type.
    wrong: () =>
      withReceiver('rejects-unknown-types', async (id) => {
        await control('POST', `/webhooks/${id}/check`)
        await control('POST', `/webhooks/${id}/test`)
      }),
    correct: () =>
      withReceiver('correct', async (id) => {
        await control('POST', `/webhooks/${id}/check`)
        await control('POST', `/webhooks/${id}/test`)
      }),
    company: null,
  },
  receiver_accepts_bad_signature: {
    wrong: () =>
      withReceiver(
        'careless',
        async (id) => (
          await control('PUT', `/webhooks/${id}/chaos`, { bad_signature: 1 }),
          control('POST', `/webhooks/${id}/test`)
        ),
      ),
    correct: () =>
      withReceiver(
        'correct',
        async (id) => (
          await control('PUT', `/webhooks/${id}/chaos`, { bad_signature: 1 }),
          control('POST', `/webhooks/${id}/test`)
        ),
      ),
    // The admin's subscription for every company: its test message belongs to none.
    company: null,
  },
  receiver_accepts_stale_timestamp: {
    wrong: () => withReceiver('careless', (id) => control('POST', `/webhooks/${id}/check`)),
    correct: () => withReceiver('correct', (id) => control('POST', `/webhooks/${id}/check`)),
    company: null,
  },
  lenient_amount: {
    wrong: async () => {
      await raw('POST', '/api/v1/hub/transactions/in', JSON_HEADERS, '{"amount": 10.0}')
      await raw('POST', '/api/v1/hub/transactions/in', JSON_HEADERS, '{"amount": 1e3}')
      sb.apply({ settings: { validation_errors: 'fastapi' } })
      await raw('POST', '/api/v1/hub/transactions/in', JSON_HEADERS, '{"amount": "1000"}')
      await raw(
        'POST',
        '/api/v1/hub/transactions/out',
        JSON_HEADERS,
        '{"amount": true, "pix_key": "maria@example.com", "pix_type": "EMAIL"}',
      )
    },
    correct: async () => {
      sb.apply({ settings: { validation_errors: 'fastapi' } })
      await raw('POST', '/api/v1/hub/transactions/in', JSON_HEADERS, '{"amount": 1000}')
      // "amount" elsewhere than the top level's amount, or refused (a string in the simple style).
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        JSON_HEADERS,
        '{"description": "\\"amount\\": 1.5", "meta": {"amount": "x"}, "amount" : 1000 }',
      )
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        JSON_HEADERS,
        '{"meta": {"amount": 2.5}, "amount": 1000}',
      )
      sb.apply({ settings: { validation_errors: 'simple' } })
      await raw('POST', '/api/v1/hub/transactions/in', JSON_HEADERS, '{"amount": "1000"}')
    },
    company: 'loja-exemplo',
  },
  retry_after_server_error: {
    wrong: async () => {
      await control('POST', '/faults', { operation: 'transfer', status: 503, times: 1 })
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(503)
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(200)
    },
    correct: async () => {
      // The same transfer twice without a failure (a suite testing duplicates), and a different
      // one after a 503.
      await post('/hub/transactions/out', TRANSFER)
      await post('/hub/transactions/out', TRANSFER)
      await control('POST', '/faults', { operation: 'transfer', status: 500, times: 1 })
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(500)
      expect(
        (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 8' })).status,
      ).toBe(200)
      // Sent beside a failing one, not after it: not a retry.
      await control('POST', '/faults', {
        operation: 'transfer',
        status: 503,
        delay_ms: 1500,
        times: 1,
      })
      const [first, second] = await Promise.all([
        post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 9' }),
        sleep(100).then(() =>
          post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 9' }),
        ),
      ])
      expect([first.status, second.status]).toEqual([503, 200])
      // Another user of the company sending the same body pays from another account: not a retry.
      await control('POST', '/faults', { operation: 'transfer', status: 500, times: 1 })
      expect(
        (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 10' })).status,
      ).toBe(500)
      expect(
        (
          await post(
            '/hub/transactions/out',
            { ...TRANSFER, description: 'Pedido 10' },
            {},
            AUTH.emptyBalance,
          )
        ).status,
      ).toBe(422)
    },
    company: 'loja-exemplo',
  },
  ignored_retry_after: {
    wrong: async () => {
      await control('POST', '/faults', {
        operation: 'charge',
        status: 503,
        retry_after: 5,
        times: 1,
      })
      const refused = await post('/hub/transactions/in', { amount: 1000 })
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5'])
      await post('/hub/transactions/in', { amount: 1000 })
    },
    correct: async () => {
      await control('POST', '/faults', {
        operation: 'charge',
        status: 503,
        retry_after: 1,
        times: 1,
      })
      expect((await post('/hub/transactions/in', { amount: 1000 })).status).toBe(503)
      await sleep(1100)
      await post('/hub/transactions/in', { amount: 1000 })
      // A call already on its way when a 503 is answered did not ignore it.
      await control('POST', '/faults', {
        operation: 'charge',
        status: 503,
        retry_after: 5,
        delay_ms: 1500,
        times: 1,
      })
      await Promise.all([
        post('/hub/transactions/in', { amount: 1000 }),
        sleep(100).then(() =>
          request(sb.url, 'GET', '/api/v1/user/company', {
            auth: AUTH.main,
            headers: { accept: 'application/json' },
          }),
        ),
      ])
      // Another operation right after a 503 (another worker's transfer) is no retry of it.
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(200)
      await request(sb.url, 'GET', '/api/v1/user/company', {
        auth: AUTH.main,
        headers: { accept: 'application/json' },
      })
    },
    company: 'loja-exemplo',
  },
  receiver_slow: {
    // Well past the 5 s threshold: the time the sandbox's own event loop was held up is not the
    // receiver's (docs/READINESS.md), and on a loaded machine that was more than 0.2 s of 5.2.
    wrong: () => withReceiver('correct', (id) => control('POST', `/webhooks/${id}/test`), 8000),
    correct: () => withReceiver('correct', (id) => control('POST', `/webhooks/${id}/test`), 200),
    company: null,
  },
  receiver_rejects_duplicate: {
    wrong: () =>
      withReceiver(
        'rejects-duplicates',
        async (id) => (
          await control('PUT', `/webhooks/${id}/chaos`, { duplicate: 1 }),
          control('POST', `/webhooks/${id}/test`)
        ),
      ),
    correct: () =>
      withReceiver('correct', async (id) => {
        await control('PUT', `/webhooks/${id}/chaos`, { duplicate: 1 })
        const d = await control('POST', `/webhooks/${id}/test`)
        await control('DELETE', `/webhooks/${id}/chaos`)
        // A retry by hand of an acknowledged delivery, taken again.
        await control('POST', `/webhooks/deliveries/${d.id}/retry`)
      }),
    company: null,
  },
  trailing_slash: {
    wrong: () => post('/hub/transactions/in/', { amount: 1000 }),
    correct: () => post('/hub/transactions/in', { amount: 1000 }),
    company: 'loja-exemplo',
  },
  missing_accept: {
    wrong: async () => {
      await raw('GET', '/api/v1/user/company', {})
      await raw('GET', '/api/v1/user/company', { accept: 'text/html' })
    },
    correct: async () => {
      await raw('GET', '/api/v1/user/company', { accept: 'application/json' })
      await raw('GET', '/api/v1/user/company', { accept: '*/*' })
      await raw('GET', '/api/v1/user/company', { accept: 'text/html, application/*;q=0.9' })
      // Media types are case-insensitive.
      await raw('GET', '/api/v1/user/company', { accept: 'Application/JSON' })
      await raw('GET', '/api/v1/user/company', {
        accept: 'text/plain, APPLICATION/JSON; charset=utf-8',
      })
    },
    company: 'loja-exemplo',
  },
}

/** The report, once the webhook attempts and nextTick records have landed. */
async function report(company: string | null) {
  await sleep(30)
  const r =
    company === null
      ? await sb.admin('GET', '/readiness')
      : await request(sb.url, 'GET', '/_sandbox/readiness', { auth: AUTH.main })
  expect(r.status).toBe(200)
  return r.body
}

describe('findings', () => {
  const ids = FINDINGS.map((f) => f.id)
  it('has a case for every finding of the catalog', () =>
    expect(Object.keys(CASES).sort()).toEqual([...ids].sort()))

  it.each(ids)('%s: not raised by a correct client', async (id) => {
    const c = CASES[id]!
    await c.correct()
    expect((await report(c.company)).findings).toEqual([])
    expect((await report(null)).findings).toEqual([])
  })

  it.each(ids)(
    '%s: raised by a client doing the wrong thing, with an example and advice, no secret',
    async (id) => {
      const c = CASES[id]!
      await c.wrong()
      const found = (await report(c.company)).findings.find((f: { id: string }) => f.id === id)
      const spec = FINDINGS.find((f) => f.id === id)!
      expect(found).toMatchObject({ id, severity: spec.severity, advice: spec.advice })
      expect(found.count).toBeGreaterThanOrEqual(1)
      expect(found.example.method).toMatch(/^(GET|POST)$/)
      expect(found.example.seen.length).toBeGreaterThan(10)
      // Our own wording never reads as a secret to the redaction.
      expect(found.example.seen).not.toContain('[redacted]')
      const text = JSON.stringify(found.example)
      for (const secret of ['sandbox-secret', 'production-secret', sb.adminToken, 'whsec_'])
        expect(text).not.toContain(secret)
    },
  )
})

describe('what each finding says', () => {
  const find = async (id: string, company: string | null = 'loja-exemplo') =>
    (await report(company)).findings.find((f: { id: string }) => f.id === id)

  it('lenient_amount names the value and why, and counts every call', async () => {
    await CASES.lenient_amount!.wrong()
    const f = await find('lenient_amount')
    expect(f.count).toBe(4)
    expect(f.example).toMatchObject({
      method: 'POST',
      path: '/api/v1/hub/transactions/in',
      seen: 'amount 10.0 (a float), accepted',
    })
  })

  it('missing_content_type says what came, and retry_after_server_error after what', async () => {
    await CASES.missing_content_type!.wrong()
    expect((await find('missing_content_type')).example.seen).toBe(
      'a 16-byte body without content-type',
    )
    await sb.admin('POST', '/reset', {})
    await CASES.retry_after_server_error!.wrong()
    expect((await find('retry_after_server_error')).example.seen).toMatch(
      /^the same transfer \(amount, pix_key and description\) sent again \d+\.\d s after a 503$/,
    )
  })

  it('production keys are found whatever the answer: an invalid body is refused before authentication', async () => {
    expect(
      await raw(
        'POST',
        '/api/v1/hub/transactions/in',
        { ...JSON_HEADERS, authorization: AUTH.production },
        '{',
      ),
    ).toBe(422)
    expect((await find('production_credentials', null)).example).toMatchObject({
      path: '/api/v1/hub/transactions/in',
      company_id: null,
      seen: expect.stringMatching(/answered 422$/),
    })
  })

  it('a transfer sent again after its client gave up went through twice: paid_twice, with both ids', async () => {
    await control('POST', '/faults', { operation: 'transfer', delay_ms: 400, times: 1 })
    const gone = new AbortController()
    setTimeout(() => gone.abort(), 100)
    await fetch(`${sb.url}/api/v1/hub/transactions/out`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: AUTH.main },
      body: JSON.stringify(TRANSFER),
      signal: gone.signal,
    }).catch(() => undefined)
    // After the held one went through: the sandbox's 400 ms timer is in this process, so it fires
    // before this one however loaded the machine. How long after is the machine's: any number.
    await sleep(500)
    expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(200)
    expect((await find('paid_twice')).example.seen).toMatch(
      /^a transfer of the same amount and pix_key sent \d+\.\d s after its client closed the connection before the answer: both went through, two debits \(E\w{31}, then E\w{31}\)$/,
    )
    expect(await find('retry_after_server_error')).toBeUndefined()
  })

  it('a call retried after a one-shot 501 is retried_permanent_error, though the retry was answered 200', async () => {
    await control('POST', '/faults', { operation: 'charge', status: 501, times: 1 })
    expect((await post('/hub/transactions/in', { amount: 1000 })).status).toBe(501)
    for (let i = 0; i < 3; i++)
      expect((await post('/hub/transactions/in', { amount: 1000 })).status).toBe(200)
    // A 501 says the operation is unsupported: nothing went through, so a transfer sent again
    // after one pays once (no retry_after_server_error), but it is retried all the same.
    await control('POST', '/faults', { operation: 'transfer', status: 501, times: 1 })
    expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(501)
    expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(200)
    expect(await find('retry_after_server_error')).toBeUndefined()
    const f = await find('retried_permanent_error')
    expect(f).toMatchObject({ severity: 'error', count: 4 })
    expect(f.example.seen).toMatch(
      /^the same charge \(amount and pix_key\) sent again \d+\.\d s after a 501, with no change of setup between \(answered 200\)$/,
    )
  })

  it('a payout reconciled from its webhook, then a new order to the same seller: paid_twice_unconfirmed (a warning naming both), not paid_twice', async () => {
    await withReceiver('correct', async () => {
      await lostThenReconciled()
      const next = await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 8' })
      expect(next.status).toBe(200)
      const f = await find('paid_twice_unconfirmed')
      expect(f).toMatchObject({ severity: 'warning', count: 1 })
      expect(f.example.seen).toMatch(
        new RegExp(
          `^a transfer of the same amount and pix_key, with another description, sent \\d+\\.\\d s after a 500 and \\d+\\.\\d s after your receiver took the first one's settling webhook: both went through \\(E\\w{31}, then ${next.body.transaction_id}\\); a new payout made knowing, or the first paid twice\\?$`,
        ),
      )
      expect(await find('paid_twice')).toBeUndefined()
    })
  })

  it('a payout re-sent blind with a new description before its webhook reached the receiver: paid_twice, an error', async () => {
    await withReceiver('correct', async (id) => {
      // The webhook is held: when the second is sent, nothing told the client the first went through.
      await control('PUT', `/webhooks/${id}/chaos`, { delay_ms: 1000 })
      await control('POST', '/faults', {
        operation: 'transfer',
        status: 500,
        when: 'after',
        times: 1,
      })
      expect((await post('/hub/transactions/out', TRANSFER)).status).toBe(500)
      expect(
        (await post('/hub/transactions/out', { ...TRANSFER, description: 'Pedido 7 (2)' })).status,
      ).toBe(200)
      await delivered('transfer.succeeded')
      expect(await find('paid_twice')).toMatchObject({ severity: 'error', count: 1 })
      expect(await find('paid_twice_unconfirmed')).toBeUndefined()
    })
  })

  it('a receiver that refuses the event types it does not handle, and takes the others: receiver_rejects_unknown_type, never a signature problem', async () => {
    await withReceiver('rejects-unknown-types', async (id) => {
      await control('POST', `/webhooks/${id}/test`)
      await attempted('webhook.test', 400)
      const tx = (await post('/hub/transactions/in', { amount: 1000 })).body.transaction_id
      await control('POST', `/charges/${tx}/pay`)
      await delivered('charge.paid')
    })
    const findings = (await report(null)).findings
    expect(findings.map((f: { id: string }) => f.id)).toEqual(['receiver_rejects_unknown_type'])
    expect(findings[0]).toMatchObject({ severity: 'warning', count: 1 })
    expect(findings[0].example.seen).toMatch(
      /^the receiver answered 400 to a correctly signed, fresh webhook\.test \(delivery \w+\), while it took charge\.paid from the same subscription$/,
    )
  })

  it('a redacted example never holds what the client sent as a secret', async () => {
    await raw(
      'POST',
      '/api/v1/hub/transactions/in',
      { accept: 'application/json', 'content-type': 'text/plain; api_key=sk_live_123' },
      '{"amount": 1000}',
    )
    const f = await find('missing_content_type')
    expect(f.example.seen).toBe('a 16-byte body with content-type: text/plain; api_key=[redacted]')
  })
})
