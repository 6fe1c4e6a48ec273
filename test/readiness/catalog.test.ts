// Every behaviour of the readiness catalog is met by following its `how`, literally, on a fresh
// sandbox (a reset), with a correct client and a correct webhook receiver; and following it
// raises no finding: a correct client's calls never cry wolf. Each way a `how` offers is
// followed, and the `how` must name what the steps use (its path, credential, magic value).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { BEHAVIOURS, type BehaviourId } from '../../src/readiness/catalog.js'
import { eventually } from '../hang.js'
import { basic, request, startTestSandbox, type TestSandbox } from '../harness.js'
import { startHookReceiver, type HookReceiver } from './receivers.js'

let sb: TestSandbox
let rx: HookReceiver
beforeAll(async () => {
  sb = await startTestSandbox()
  rx = await startHookReceiver('correct')
})
afterAll(async () => {
  await rx.close()
  await sb.close()
})
beforeEach(async () => {
  expect((await sb.admin('POST', '/reset', {})).status).toBe(200)
})

const as = (pair: string) => basic(pair.split(':')[0]!, pair.split(':')[1]!)
const MAIN = 'sandbox-client:sandbox-secret'
const CHARGE = { amount: 1000 }
const TRANSFER = { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' }

async function contract(
  method: string,
  path: string,
  json: unknown,
  auth: string | undefined,
  headers: Record<string, string> = {},
) {
  return request(sb.url, method, `/api/v1${path}`, {
    auth,
    json,
    headers: { accept: 'application/json', ...headers },
  })
}
const control = async (method: string, path: string, json?: unknown) => {
  const r = await sb.admin(method, path, json)
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300)
  return r.body
}
const charge = async () =>
  (await contract('POST', '/hub/transactions/in', CHARGE, as(MAIN))).body.transaction_id as string
/** A subscription for the correct receiver, its secret handed to the receiver. */
const subscribe = async () => {
  const hook = await control('POST', '/webhooks', { url: rx.url })
  rx.secret = hook.secret
  return hook.id as string
}

const FASTAPI =
  'POST /_sandbox/scenarios {"document": {"settings": {"validation_errors": "fastapi"}}}'
/** `call` answered in the fastapi style, then the style put back, as the how says. */
async function inFastapiStyle(call: () => Promise<unknown>) {
  await control('POST', '/scenarios', { document: { settings: { validation_errors: 'fastapi' } } })
  await call()
  return control('POST', '/scenarios', { document: { settings: { validation_errors: 'simple' } } })
}

interface How {
  /** What the `how` must say for these steps to be the ones it gives. */
  mentions: string[]
  /** Each way the `how` offers, followed on a fresh sandbox. */
  ways: (() => Promise<unknown>)[]
}

const HOWS: Record<BehaviourId, How> = {
  'charge.created': {
    mentions: ['POST /api/v1/hub/transactions/in', '{"amount": 1000}', MAIN],
    ways: [charge],
  },
  'charge.unauthenticated': {
    mentions: ['sandbox-client:wrong-secret'],
    ways: [
      () => contract('POST', '/hub/transactions/in', CHARGE, as('sandbox-client:wrong-secret')),
    ],
  },
  'charge.forbidden': {
    mentions: ['inactive:inactive-secret'],
    ways: [() => contract('POST', '/hub/transactions/in', CHARGE, as('inactive:inactive-secret'))],
  },
  'charge.invalid': {
    mentions: ['{"amount": 0}'],
    ways: [() => contract('POST', '/hub/transactions/in', { amount: 0 }, as(MAIN))],
  },
  'charge.invalid.fastapi': {
    mentions: [FASTAPI, '{"amount": 0}', MAIN, 'put "simple" back'],
    ways: [
      () => inFastapiStyle(() => contract('POST', '/hub/transactions/in', { amount: 0 }, as(MAIN))),
    ],
  },
  'charge.no_provider': {
    mentions: ['no-provider:no-provider-secret'],
    ways: [
      () => contract('POST', '/hub/transactions/in', CHARGE, as('no-provider:no-provider-secret')),
    ],
  },
  ...Object.fromEntries(
    (['charge', 'transfer'] as const).flatMap((op) =>
      // transfer.unsupported has a way of its own too (below).
      (
        [
          ['unsupported', 501],
          ['server_error', 500],
          ['unavailable', 503],
        ] as const
      )
        .filter(([name]) => op === 'charge' || name !== 'unsupported')
        .map(([name, status]) => [
          `${op}.${name}`,
          {
            mentions: [
              `POST /_sandbox/faults {"operation": "${op}", "status": ${status}, "times": 1}`,
              ...(op === 'transfer' ? ['a description of its own'] : []),
            ],
            ways: [
              async () => {
                await control('POST', '/faults', { operation: op, status, times: 1 })
                return op === 'charge'
                  ? charge()
                  : contract(
                      'POST',
                      '/hub/transactions/out',
                      { ...TRANSFER, description: `after a ${status}` },
                      as(MAIN),
                    )
              },
            ],
          },
        ]),
    ),
  ),
  'transfer.succeeded': {
    mentions: ['POST /api/v1/hub/transactions/out', '"maria@example.com"', MAIN],
    ways: [() => contract('POST', '/hub/transactions/out', TRANSFER, as(MAIN))],
  },
  'transfer.pending': {
    mentions: ['"pending@pix.example"', 'X-Sandbox-Outcome: pending'],
    ways: [
      () =>
        contract(
          'POST',
          '/hub/transactions/out',
          { ...TRANSFER, pix_key: 'pending@pix.example' },
          as(MAIN),
        ),
      () =>
        contract('POST', '/hub/transactions/out', TRANSFER, as(MAIN), {
          'X-Sandbox-Outcome': 'pending',
        }),
    ],
  },
  'transfer.failed': {
    mentions: ['"failed@pix.example"', 'amount 666', 'X-Sandbox-Outcome: failed'],
    ways: [
      () =>
        contract(
          'POST',
          '/hub/transactions/out',
          { ...TRANSFER, pix_key: 'failed@pix.example' },
          as(MAIN),
        ),
      () => contract('POST', '/hub/transactions/out', { ...TRANSFER, amount: 666 }, as(MAIN)),
      () =>
        contract('POST', '/hub/transactions/out', TRANSFER, as(MAIN), {
          'X-Sandbox-Outcome': 'failed',
        }),
    ],
  },
  'transfer.insufficient_balance': {
    mentions: ['empty-balance:empty-balance-secret'],
    ways: [
      () =>
        contract(
          'POST',
          '/hub/transactions/out',
          TRANSFER,
          as('empty-balance:empty-balance-secret'),
        ),
    ],
  },
  'transfer.invalid': {
    mentions: ['"pix_type": "CPF"', '"pix_key": "maria@example.com"'],
    ways: [
      () => contract('POST', '/hub/transactions/out', { ...TRANSFER, pix_type: 'CPF' }, as(MAIN)),
    ],
  },
  'transfer.invalid.fastapi': {
    mentions: [FASTAPI, '"pix_type": "CPF"', '"pix_key": "maria@example.com"', 'put "simple" back'],
    ways: [
      () =>
        inFastapiStyle(() =>
          contract('POST', '/hub/transactions/out', { ...TRANSFER, pix_type: 'CPF' }, as(MAIN)),
        ),
    ],
  },
  'transfer.answer_lost': {
    mentions: [
      'POST /_sandbox/faults {"operation": "transfer", "status": 500, "when": "after", "times": 1}',
      '"drop": true',
      'no other step sends',
    ],
    ways: [
      async () => {
        await control('POST', '/faults', {
          operation: 'transfer',
          status: 500,
          when: 'after',
          times: 1,
        })
        expect(
          (
            await contract(
              'POST',
              '/hub/transactions/out',
              { ...TRANSFER, amount: 1500, pix_key: 'lost@pix.example' },
              as(MAIN),
            )
          ).status,
        ).toBe(500)
      },
      async () => {
        await control('POST', '/faults', { operation: 'transfer', drop: true, times: 1 })
        await expect(
          contract(
            'POST',
            '/hub/transactions/out',
            { ...TRANSFER, amount: 1501, pix_key: 'lost@pix.example' },
            as(MAIN),
          ),
        ).rejects.toThrow()
      },
    ],
  },
  'transfer.unauthenticated': {
    mentions: ['sandbox-client:wrong-secret'],
    ways: [
      () => contract('POST', '/hub/transactions/out', TRANSFER, as('sandbox-client:wrong-secret')),
    ],
  },
  'transfer.forbidden': {
    mentions: ['inactive:inactive-secret'],
    ways: [
      () => contract('POST', '/hub/transactions/out', TRANSFER, as('inactive:inactive-secret')),
    ],
  },
  'transfer.no_provider': {
    mentions: ['no-provider:no-provider-secret'],
    ways: [
      () =>
        contract('POST', '/hub/transactions/out', TRANSFER, as('no-provider:no-provider-secret')),
    ],
  },
  'transfer.unsupported': {
    mentions: [
      'charges-only:charges-only-secret',
      'POST /_sandbox/faults {"operation": "transfer", "status": 501, "times": 1}',
    ],
    ways: [
      () =>
        contract('POST', '/hub/transactions/out', TRANSFER, as('charges-only:charges-only-secret')),
      async () => (
        await control('POST', '/faults', { operation: 'transfer', status: 501, times: 1 }),
        contract('POST', '/hub/transactions/out', TRANSFER, as(MAIN))
      ),
    ],
  },
  'company.read': {
    mentions: ['GET /api/v1/user/company', MAIN],
    ways: [() => contract('GET', '/user/company', undefined, as(MAIN))],
  },
  'company.unauthenticated': {
    mentions: ['GET /api/v1/user/company', 'sandbox-client:wrong-secret'],
    ways: [() => contract('GET', '/user/company', undefined, as('sandbox-client:wrong-secret'))],
  },
  'webhook.charge.paid': {
    mentions: ['POST /_sandbox/webhooks {"url":', 'POST /_sandbox/charges/{transaction_id}/pay'],
    ways: [async () => (await subscribe(), control('POST', `/charges/${await charge()}/pay`))],
  },
  'webhook.charge.cancelled': {
    mentions: [
      'POST /_sandbox/charges/{transaction_id}/cancel',
      'POST /_sandbox/clock/advance {"seconds": 3600}',
    ],
    ways: [
      async () => (await subscribe(), control('POST', `/charges/${await charge()}/cancel`)),
      async () => (
        await subscribe(), await charge(), control('POST', '/clock/advance', { seconds: 3600 })
      ),
    ],
  },
  'webhook.transfer.succeeded': {
    mentions: ['with a subscription', 'POST /api/v1/hub/transactions/out'],
    ways: [
      async () => (
        await subscribe(), contract('POST', '/hub/transactions/out', TRANSFER, as(MAIN))
      ),
    ],
  },
  'webhook.transfer.failed': {
    mentions: ['with a subscription', '"failed@pix.example"'],
    ways: [
      async () => (
        await subscribe(),
        contract(
          'POST',
          '/hub/transactions/out',
          { ...TRANSFER, pix_key: 'failed@pix.example' },
          as(MAIN),
        )
      ),
    ],
  },
  'transfer.pending_settled': {
    mentions: [
      'with a subscription',
      '"pending@pix.example"',
      'POST /_sandbox/transfers/{transaction_id}/settle {"status": "success"}',
      'POST /_sandbox/clock/advance {"seconds": 60}',
    ],
    ways: [
      async () => {
        await subscribe()
        const pending = await contract(
          'POST',
          '/hub/transactions/out',
          { ...TRANSFER, pix_key: 'pending@pix.example' },
          as(MAIN),
        )
        return control('POST', `/transfers/${pending.body.transaction_id}/settle`, {
          status: 'success',
        })
      },
      async () => (
        await subscribe(),
        await contract(
          'POST',
          '/hub/transactions/out',
          { ...TRANSFER, pix_key: 'pending@pix.example' },
          as(MAIN),
        ),
        control('POST', '/clock/advance', { seconds: 60 })
      ),
    ],
  },
  'webhook.retried': {
    mentions: [
      'PUT /_sandbox/webhooks/{id}/chaos {"drop": 1}',
      'POST /_sandbox/webhooks/{id}/test',
      'DELETE /_sandbox/webhooks/{id}/chaos',
      'POST /_sandbox/webhooks/deliveries/{delivery id}/retry',
    ],
    ways: [
      async () => {
        const id = await subscribe()
        await control('PUT', `/webhooks/${id}/chaos`, { drop: 1 })
        const delivery = await control('POST', `/webhooks/${id}/test`)
        await control('DELETE', `/webhooks/${id}/chaos`)
        return control('POST', `/webhooks/deliveries/${delivery.id}/retry`)
      },
    ],
  },
  'webhook.duplicate': {
    mentions: [
      'PUT /_sandbox/webhooks/{id}/chaos {"duplicate": 1}',
      'POST /_sandbox/webhooks/{id}/test',
    ],
    ways: [
      async () => {
        const id = await subscribe()
        await control('PUT', `/webhooks/${id}/chaos`, { duplicate: 1 })
        return control('POST', `/webhooks/${id}/test`)
      },
    ],
  },
  'webhook.bad_signature_rejected': {
    mentions: [
      'POST /_sandbox/webhooks/{id}/check',
      'PUT /_sandbox/webhooks/{id}/chaos {"bad_signature": 1}',
      'POST /_sandbox/webhooks/{id}/test',
    ],
    ways: [
      async () => control('POST', `/webhooks/${await subscribe()}/check`),
      async () => {
        const id = await subscribe()
        await control('PUT', `/webhooks/${id}/chaos`, { bad_signature: 1 })
        return control('POST', `/webhooks/${id}/test`)
      },
    ],
  },
} as Record<BehaviourId, How>

/** The admin's report once `id` is met (webhooks are acknowledged after the call that caused them answered). */
const reportOnceMet = (id: string) =>
  eventually(async () => {
    const r = await sb.admin('GET', '/readiness')
    return r.body.behaviours.find((b: { id: string }) => b.id === id).met && r.body
  }, `${id} never met`)

describe('the catalog', () => {
  it('has a way for every behaviour, and no way for a behaviour it does not have', () => {
    expect(Object.keys(HOWS).sort()).toEqual(BEHAVIOURS.map((b) => b.id).sort())
  })

  const cases = BEHAVIOURS.flatMap((b) =>
    HOWS[b.id].ways.map((way, i) => ({
      id: b.id,
      how: b.how as string,
      way,
      n: i + 1,
      of: HOWS[b.id].ways.length,
    })),
  )
  it.each(cases)(
    '$id is met by its how (way $n of $of), and raises no finding',
    async ({ id, how, way }) => {
      for (const m of HOWS[id as BehaviourId].mentions) expect(how).toContain(m)
      const before = await sb.admin('GET', '/readiness')
      expect(before.body.behaviours.find((b: { id: string }) => b.id === id).met).toBe(false)
      await way()
      const report = await reportOnceMet(id)
      expect(report.behaviours.find((b: { id: string }) => b.id === id)).toMatchObject({
        id,
        met: true,
        how,
      })
      expect(report.findings).toEqual([])
    },
  )
})

describe('the catalog, followed as one suite would', () => {
  it('every way of every behaviour, one after another without a reset: all met, no finding', async () => {
    for (const b of BEHAVIOURS) for (const way of HOWS[b.id].ways) await way()
    let unmet: string[] = []
    const report = await eventually(
      async () => {
        const report = (await sb.admin('GET', '/readiness')).body
        unmet = report.behaviours
          .filter((b: { met: boolean }) => !b.met)
          .map((b: { id: string }) => b.id)
        return unmet.length === 0 && report
      },
      () => `never met: ${unmet.join(', ')}`,
    )
    expect(report.findings).toEqual([])
  })

  it("the contract's behaviours of the main credential are met in its company's own report", async () => {
    const own = [
      'charge.created',
      'charge.unauthenticated',
      'transfer.succeeded',
      'transfer.unauthenticated',
      'company.read',
      'company.unauthenticated',
    ] as const
    for (const id of own) for (const way of HOWS[id].ways) await way()
    const report = (await sb.admin('GET', '/readiness?company_id=loja-exemplo')).body
    expect(
      report.behaviours.filter(
        (b: { id: string; met: boolean }) => own.includes(b.id as (typeof own)[number]) && b.met,
      ).length,
    ).toBe(own.length)
  })
})
