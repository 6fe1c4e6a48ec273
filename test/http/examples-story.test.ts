// The examples' story: the documents' examples are what a sandbox started with SEED=docs
// START_TIME=2026-03-01T12:00:00Z PUBLIC_URL=http://localhost:8080 answers when given the calls
// below, in order. Every control operation with a success example is called with its documented
// request (path ids, query, body) and must answer exactly its documented example; an operation
// whose example needs a record of its own (a charge to expire, a transfer to settle, a delivery to
// retry) comes after the calls that make it. A new route is in the story without being named here.
import { describe, expect, it } from 'vitest'
import { AUTH, type Reply, startTestSandbox, type TestSandbox } from '../harness.js'
import { examples, type Json, operations } from './documented.js'
import { curl, examplesReceiver } from './examples-receiver.js'

/** A call that makes what a later operation's example needs: only its status is checked. */
interface Setup {
  setup: string
  status: number
  call(sb: TestSandbox): Promise<Reply | { status: number; text: string }>
}
type Step = string | Setup

const charge = (amount: number, description: string): Setup => ({
  setup: `a charge of ${amount} (${description})`,
  status: 200,
  call: (sb) =>
    sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount, description },
    }),
})
const admin = (
  method: string,
  path: string,
  status: number,
  why: string,
  json?: unknown,
): Setup => ({
  setup: why,
  status,
  call: (sb) => sb.admin(method, path, json),
})
/** Waits until no delivery is pending: the worker sends after the answer that queued it. */
const concluded: Setup = {
  setup: 'every webhook delivery concluded',
  status: 200,
  call: async (sb) => {
    for (;;) {
      const pending = await sb.admin('GET', '/webhooks/deliveries?status=pending')
      if (pending.status !== 200 || pending.body.data.length === 0) return pending
      await new Promise((r) => setTimeout(r, 10))
    }
  },
}

/** The operations whose documented answer depends on what came before, in the order they are called. */
const STORY: Step[] = [
  'POST /clock/freeze',
  'GET /whoami',
  'GET /scenario',
  'GET /companies',
  'GET /transfers/{transaction_id}',
  'POST /webhooks',
  'GET /webhooks/{webhook_id}',
  'GET /webhooks',
  'GET /transfers',
  'POST /charges/{transaction_id}/pay',
  'GET /charges/{transaction_id}',
  'GET /charges',
  'PUT /users/{user_id}/providers',
  'POST /outcomes',
  'GET /outcomes',
  'POST /faults',
  'GET /faults',
  'POST /companies',
  'PATCH /companies/{company_id}',
]
/**
 * After every other operation with a success example (in the document's order): those whose
 * example is of a record of its own, each after the calls that make it.
 */
const LATER: Step[] = [
  admin('DELETE', '/outcomes', 204, "the queued outcome goes: the next transfer is its key's"),
  admin('DELETE', '/faults', 204, 'the queued fault goes: the next calls are answered'),
  // The subscription's own message, to the examples' receiver (served below), then again.
  'POST /webhooks/{webhook_id}/test',
  concluded,
  'GET /webhooks/deliveries',
  'POST /webhooks/deliveries/{delivery_id}/retry',
  'POST /webhooks/{webhook_id}/check',
  // A record for each operation below, made before any of them, so that each one's id is drawn
  // whatever the others do.
  charge(2500, 'Pedido 1235'),
  charge(4000, 'Pedido 1236'),
  charge(1500, 'Pedido 1237'),
  charge(1000, 'Pedido 1238'),
  admin('PUT', '/users/loja-exemplo-user/providers', 200, 'the user may send transfers again', {
    in: { name: 'Banco Exemplo', operations: ['charge'] },
    out: { name: 'Banco Exemplo', operations: ['transfer'] },
  }),
  {
    setup: 'a transfer to the key that settles later',
    status: 200,
    call: (sb) =>
      sb.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 3000, pix_key: 'pending@pix.example', pix_type: 'EMAIL' },
      }),
  },
  'POST /charges/{transaction_id}/expire',
  'POST /charges/{transaction_id}/cancel',
  'POST /pay',
  'POST /provider-webhook',
  'POST /transfers/{transaction_id}/settle',
  concluded,
  'GET /readiness',
]
/**
 * What changes the whole sandbox (or a subscription's every later delivery), at the story's end;
 * the clock's advance after the scenario's answer, which says the time, and its reset (back to
 * running) after both.
 */
const LAST: Step[] = [
  'PUT /webhooks/{webhook_id}/chaos',
  'POST /scenarios',
  charge(1000, 'Pedido 1239'),
  'POST /clock/advance',
  'POST /clock/reset',
  'POST /reset',
]
/** Whose credentials call an operation of the story (the admin's unless named). */
const AS: Record<string, string> = {
  'GET /whoami': AUTH.main,
  'GET /companies': AUTH.inactive,
  'POST /webhooks': AUTH.main,
  'GET /readiness': AUTH.main,
}

/** Each attempt of a delivery: how fast the receiver answered, and the real time it was signed at (a receiver checks it against its own clock). */
const attempts = (delivery: Json): Json => ({
  ...delivery,
  attempts: delivery.attempts.map((a: Json) => ({
    ...a,
    latency_ms: expect.any(Number),
    headers: {
      ...a.headers,
      'webhook-timestamp': expect.stringMatching(/^\d{10}$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    },
  })),
})
/** What an answer holds that the machine decides, not the story: matched by kind, not value. */
const VARIES: Record<string, (example: Json) => Json> = {
  // How long the sandbox took to answer, on the machine's own clock.
  'GET /requests': (page) => ({
    ...page,
    data: page.data.map((e: Json) => ({ ...e, duration_ms: expect.any(Number) })),
  }),
  'POST /webhooks/{webhook_id}/test': attempts,
  'GET /webhooks/deliveries': (page) => ({ ...page, data: page.data.map(attempts) }),
  'POST /webhooks/deliveries/{delivery_id}/retry': attempts,
  // How long the receiver took to answer each check.
  'POST /webhooks/{webhook_id}/check': (check) => ({
    ...check,
    checks: check.checks.map((c: Json) => ({ ...c, ms: expect.any(Number) })),
  }),
  // The example shows four of the catalog's behaviours; the real time beside each virtual one.
  'GET /readiness': (report) => ({
    ...report,
    behaviours: expect.arrayContaining(report.behaviours),
    findings: report.findings.map((f: Json) => ({
      ...f,
      example: { ...f.example, wall_time: expect.any(String) },
    })),
    receiver_checks: report.receiver_checks.map((c: Json) => ({
      ...c,
      wall_time: expect.any(String),
    })),
  }),
}

describe('a sandbox started as the examples say (SEED=docs, START_TIME, PUBLIC_URL)', () => {
  it("answers every operation of the examples' story with exactly the documented examples, errors included", async () => {
    const served = await examplesReceiver()
    const seeded = await startTestSandbox({ publicUrl: 'http://localhost:8080', seed: 'docs' })
    try {
      const contract = (await seeded.request('GET', '/openapi.json')).body
      const control = (await seeded.request('GET', '/_sandbox/openapi.json')).body
      const documented = (doc: Json, operation: string) =>
        examples(doc, 'response').find((e) => e.operation === operation)?.example
      const asked = (doc: Json, operation: string) =>
        examples(doc, 'request').find((e) => e.operation === operation)?.example

      // The contract's examples: the first charge made as curl makes it (the journal's example).
      const company = await seeded.request('GET', '/api/v1/user/company', { auth: AUTH.main })
      expect(company.body).toEqual(documented(contract, 'GET /user/company 200'))
      const port = Number(new URL(seeded.url).port)
      const first = await curl(port, AUTH.main, asked(contract, 'POST /hub/transactions/in'))
      expect(JSON.parse(first.text)).toEqual(documented(contract, 'POST /hub/transactions/in 200'))
      const out = await seeded.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: asked(contract, 'POST /hub/transactions/out'),
      })
      expect(out.body).toEqual(documented(contract, 'POST /hub/transactions/out 200'))

      const ops = operations(control)
      const success = (operation: string) =>
        examples(control, 'response').find(
          (e) => e.operation.startsWith(`${operation} 2`) && e.named.length > 0,
        )
      const withExample = ops.map((o) => o.operation).filter((o) => success(o))
      const named = [...STORY, ...LATER, ...LAST].filter((s) => typeof s === 'string')
      expect(named.filter((o) => !ops.some((x) => x.operation === o))).toEqual([])
      const order: Step[] = [
        ...STORY,
        ...withExample.filter((o) => !named.includes(o)),
        ...LATER,
        ...LAST,
      ]
      const called: string[] = []
      for (const step of order) {
        if (typeof step !== 'string') {
          const reply = await step.call(seeded)
          expect.soft(reply.status, `${step.setup}: ${reply.text}`).toBe(step.status)
          continue
        }
        const op = ops.find((o) => o.operation === step)!
        const expected = success(step)!
        const reply = await seeded.request(op.method, `/_sandbox${op.path}`, {
          auth: AS[step] ?? `Bearer ${seeded.adminToken}`,
          json: op.json,
        })
        const example = expected.example as Json
        expect
          .soft({ status: reply.status, body: reply.body }, `${step}: its documented answer`)
          .toEqual({
            status: Number(expected.operation.split(' ').pop()),
            body: VARIES[step]?.(example) ?? example,
          })
        called.push(step)
      }
      // Every operation with a success example was compared with a real answer.
      expect(withExample.filter((o) => !called.includes(o))).toEqual([])

      // A 404 shows what the sandbox says of an unknown id of the path's kind.
      const fresh = await startTestSandbox({ publicUrl: 'http://localhost:8080', seed: 'docs' })
      try {
        for (const op of ops.filter((o) => o.operation.includes('{'))) {
          const reply = await fresh.request(
            op.method,
            `/_sandbox${op.operation.split(' ')[1]!.replace(/\{\w+\}/g, 'nope')}`,
            { auth: `Bearer ${fresh.adminToken}`, json: op.json },
          )
          expect(reply.body, op.operation).toEqual(documented(control, `${op.operation} 404`))
        }
      } finally {
        await fresh.close()
      }
      const other = await seeded.request('GET', '/_sandbox/charges?company_id=nope', {
        auth: AUTH.main,
      })
      expect(other.body).toEqual(documented(control, 'GET /charges 404'))
      // The shared errors' examples are answers too.
      expect((await seeded.request('GET', '/_sandbox/clock')).body).toEqual(
        documented(control, 'GET /clock 401'),
      )
      expect((await seeded.request('GET', '/_sandbox/clock', { auth: AUTH.main })).body).toEqual(
        documented(control, 'GET /clock 403'),
      )
      const newCharge = await seeded.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 1000 },
      })
      await seeded.admin('POST', `/charges/${newCharge.body.transaction_id}/pay`, {})
      expect(
        (await seeded.admin('POST', `/charges/${newCharge.body.transaction_id}/pay`, {})).body,
      ).toEqual(documented(control, 'POST /charges/{transaction_id}/pay 409'))
      expect((await seeded.admin('POST', '/companies', { name: '' })).body).toEqual(
        documented(control, 'POST /companies 422'),
      )
    } finally {
      await seeded.close()
      await served.close()
    }
    // Every operation of the document, twice: seconds alone, more on a loaded machine.
  })
})
