// Every operation of the control plane, called once to success, answers exactly what
// /_sandbox/openapi.json declares for it: no undeclared field, no field of another type, no
// status the document does not list. A route added without being called here fails the last test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conformance, type Conformance } from '../conformance.js'
import { AUTH, request, startTestSandbox, type Reply, type TestSandbox } from '../harness.js'
import { startReceiver, type Receiver } from '../webhooks/receiver.js'

let sb: TestSandbox
let receiver: Receiver
let doc: Record<string, any>
let checker: Conformance

beforeAll(async () => {
  sb = await startTestSandbox()
  receiver = await startReceiver()
  doc = (await request(sb.url, 'GET', '/_sandbox/openapi.json')).body
  checker = conformance(doc)
})
afterAll(async () => {
  await receiver.close()
  await sb.close()
})

/** A control call that must succeed and conform. */
async function call(
  method: string,
  path: string,
  json?: unknown,
  auth = `Bearer ${sb.adminToken}`,
): Promise<Reply> {
  const reply = await request(sb.url, method, `/_sandbox${path}`, { auth, json })
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBeLessThan(300)
  expect(checker.problems(method, path.split('?')[0]!, reply.status, reply.body)).toEqual([])
  return reply
}

const contract = (
  path: string,
  json: unknown,
  auth = AUTH.main,
  headers?: Record<string, string>,
) => request(sb.url, 'POST', `/api/v1${path}`, { auth, json, headers }).then((r) => r.body)

describe('the conformance check itself', () => {
  it('refuses a real answer with a field added, a field mistyped, or a status not declared', async () => {
    const charge = await contract('/hub/transactions/in', { amount: 1000 })
    const record = (await call('GET', `/charges/${charge.transaction_id}`)).body
    expect(
      checker.problems('GET', `/charges/${charge.transaction_id}`, 200, { ...record, extra: 1 }),
    ).toEqual([expect.stringContaining('must NOT have additional properties "extra"')])
    expect(
      checker.problems('GET', `/charges/${charge.transaction_id}`, 200, {
        ...record,
        amount: '1000',
      }),
    ).toEqual([expect.stringContaining('/amount must be integer')])
    expect(checker.problems('GET', `/charges/${charge.transaction_id}`, 201, record)[0]).toContain(
      'answered 201',
    )
    expect(
      checker.problems('GET', '/charges/nope', 404, { detail: 'Charge not found', hint: 'x' })[0],
    ).toContain('additional properties')
  })
})

describe('every control-plane operation', () => {
  it('answers what its declaration publishes', async () => {
    await call('GET', '/health')
    await call('GET', '/scenarios')
    await call('GET', '/scenario')
    await call('POST', '/scenarios', { name: 'many-users' })
    await call('POST', '/reset', {})
    await call('GET', '/whoami', undefined, AUTH.main)

    const tenant = (await call('POST', '/companies', { name: 'Conformance Ltda', balance: 50_000 }))
      .body
    await call('PATCH', `/companies/${tenant.company_id}`, { name: 'Conformance SA' })
    await call('PUT', `/users/${tenant.user_id}/providers`, { out: null })
    await call('PUT', `/users/${tenant.user_id}/providers`, {
      out: { name: 'B', operations: ['transfer'] },
    })
    await call('PUT', `/users/${tenant.user_id}/balance`, { amount: 70_000 })
    await call('GET', `/users/${tenant.user_id}/balance`)
    await call('GET', '/companies?limit=2')
    await call('GET', '/companies', undefined, AUTH.main)

    const hook = (await call('POST', '/webhooks', { url: receiver.url })).body
    await call('GET', '/webhooks')
    await call('GET', `/webhooks/${hook.id}`)
    await call('PUT', `/webhooks/${hook.id}/chaos`, { duplicate: 0 })
    await call('DELETE', `/webhooks/${hook.id}/chaos`)
    await call('POST', `/webhooks/${hook.id}/check`)
    const test = (await call('POST', `/webhooks/${hook.id}/test`)).body
    await call('POST', `/webhooks/deliveries/${test.id}/retry`)
    await call('GET', '/webhooks/deliveries')

    const charges = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        contract('/hub/transactions/in', { amount: 1000 + n, description: `c${n}` }),
      ),
    )
    await call('GET', '/charges?limit=2')
    await call('GET', `/charges/${charges[0].transaction_id}`)
    await call('POST', `/charges/${charges[0].transaction_id}/pay`, {
      payer: { name: 'Maria Souza', document: '52998224725' },
    })
    await call('POST', `/charges/${charges[1].transaction_id}/expire`)
    await call('POST', `/charges/${charges[2].transaction_id}/cancel`)
    await call('POST', '/pay', { qr_code: charges[3].qr_code })
    const more = await contract('/hub/transactions/in', { amount: 2500 })
    await call('POST', '/provider-webhook', {
      pix: [
        {
          endToEndId: 'E12345678202603011200abcdefghijk',
          txid: more.transaction_id,
          valor: '25.00',
        },
      ],
    })

    const pending = await contract(
      '/hub/transactions/out',
      { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      AUTH.main,
      { 'x-sandbox-outcome': 'pending' },
    )
    await call('GET', '/transfers')
    await call('GET', `/transfers/${pending.transaction_id}`)
    await call('POST', `/transfers/${pending.transaction_id}/settle`, { status: 'failed' })

    await call('POST', '/outcomes', { status: 'failed', match: { amount: 123 } })
    await call('GET', '/outcomes')
    await call('DELETE', '/outcomes')
    await call('POST', '/faults', { operation: 'company', status: 503, times: 1 })
    await call('GET', '/faults')
    await call('DELETE', '/faults')

    await call('GET', '/clock')
    await call('POST', '/clock/advance', { seconds: 120 })
    await call('POST', '/clock/freeze')
    await call('POST', '/clock/resume')
    await call('POST', '/clock/reset')

    await call('GET', '/readiness')
    await call('GET', '/readiness', undefined, AUTH.main)
    await call('GET', '/readiness?company_id=loja-exemplo')
    await call('POST', '/faults', { operation: 'charge', status: 503, retry_after: 5, times: 1 })
    await call('GET', '/faults')
    await call('DELETE', '/faults')
    await call('GET', '/events?limit=5')
    await call('GET', `/events?transaction_id=${pending.transaction_id}&order=newest`)
    await call('GET', '/requests?limit=5')
    await call('GET', '/requests/count?path=/api/v1/hub/transactions/in')
    await call('DELETE', '/requests')
    await call('DELETE', `/webhooks/${hook.id}`)
    await call('DELETE', `/companies/${tenant.company_id}`)
  })

  it('was called above, each operation of the document', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(operations.filter((op) => !checker.seen.has(op))).toEqual([])
  })
})
