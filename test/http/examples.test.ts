// /docs "Try it out" starts from each operation's documented example: every request body has one,
// it is valid against its own schema, and the contract's are answered 200 as they are (the page's
// first click succeeds); every documented response example is valid against its schema too.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { closedDocument } from '../conformance.js'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

type Json = Record<string, any>
let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox({ publicUrl: 'http://localhost:8080' })))
afterAll(() => sb.close())

interface Documented {
  operation: string
  path: string
  method: string
  /** Where the example's schema sits in the document, as a JSON pointer. */
  pointer: string
  example: unknown
}

/** Each example of the document's request bodies (`request`) or responses: on the media type, or on its schema (resolved through $ref and allOf). */
function examples(
  doc: Json,
  where: 'request' | 'response',
): (Documented & { schema: Json; named: { name: string; value: unknown }[] })[] {
  const resolve = (s: Json): Json =>
    s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s
  const exampleOf = (s: Json): unknown =>
    s.example ??
    resolve(s).example ??
    (s.allOf ?? []).map(exampleOf).find((e: unknown) => e !== undefined)
  const namedOf = (media: Json): { name: string; value: unknown }[] => {
    if (media.examples)
      return Object.entries<Json>(media.examples).map(([name, e]) => ({ name, value: e.value }))
    const value = media.example ?? exampleOf(media.schema)
    return value === undefined ? [] : [{ name: 'example', value }]
  }
  const esc = (p: string) => p.replaceAll('~', '~0').replaceAll('/', '~1')
  return Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
    Object.entries<Json>(ops).flatMap(([method, op]) => {
      const bodies: [string, Json][] =
        where === 'request'
          ? op.requestBody
            ? [['requestBody', op.requestBody.content['application/json']]]
            : []
          : Object.entries<Json>(op.responses)
              .filter(([, r]) => r.content)
              .map(([status, r]) => [`responses/${status}`, r.content['application/json']])
      return bodies.map(([part, media]) => ({
        operation: `${method.toUpperCase()} ${path}${where === 'response' ? ` ${part.split('/')[1]}` : ''}`,
        path,
        method,
        pointer: `#/paths/${esc(path)}/${method}/${part.split('/').map(esc).join('/')}/content/application~1json/schema`,
        schema: media.schema,
        named: namedOf(media),
        example: namedOf(media)[0]?.value,
      }))
    }),
  )
}

function validator(doc: Json) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false })
  ajv.addSchema(closedDocument(doc), 'doc')
  return (pointer: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `doc${pointer}` })
    return validate(value) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`)
  }
}

describe.each([
  ['the contract', '/openapi.json'],
  ['the control plane', '/_sandbox/openapi.json'],
])('%s', (_, docPath) => {
  let doc: Json
  beforeAll(async () => (doc = (await sb.request('GET', docPath)).body))

  it('documents a request example for every body, valid against its own schema', () => {
    const problems = validator(doc)
    for (const e of examples(doc, 'request')) {
      expect(e.example, `${e.operation} has no example`).toBeDefined()
      expect(problems(e.pointer, e.example), e.operation).toEqual([])
    }
  })

  it('documents an example for every response with a body, each valid against its schema', () => {
    const problems = validator(doc)
    const responses = examples(doc, 'response')
    expect(responses.filter((e) => e.named.length === 0).map((e) => e.operation)).toEqual([])
    for (const e of responses)
      for (const { name, value } of e.named)
        expect(problems(e.pointer, value), `${e.operation} (${name})`).toEqual([])
  })
})

describe("the contract's examples, posted as they are", () => {
  it('are answered 200 with the documented success shape', async () => {
    // A sandbox of its own: the file's, idle while the tests above compiled their validators (the
    // event loop held for seconds), may close its kept-alive connection as this test reuses it
    // (ECONNRESET, seen on a loaded machine).
    const sb = await startTestSandbox()
    onTestFinished(() => sb.close())
    const doc = (await sb.request('GET', '/openapi.json')).body
    const posted = examples(doc, 'request')
    expect(posted.map((e) => e.operation).sort()).toEqual([
      'POST /hub/transactions/in',
      'POST /hub/transactions/out',
    ])
    const success = Object.fromEntries(
      examples(doc, 'response').map((e) => [e.operation, e.example]),
    )
    for (const e of posted) {
      const reply = await sb.request('POST', `/api/v1${e.path}`, {
        auth: AUTH.main,
        json: e.example,
      })
      expect(reply.status, `${e.operation}: ${reply.text}`).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(
        Object.keys(success[`${e.operation} 200`] as object).sort(),
      )
    }
  })
})

/**
 * The examples' story: the operations whose documented answer depends on what came before, in
 * the order they are called. Every other operation with a success example is called after these,
 * in the document's order, then `LAST`: a new route is in the story without being named here.
 */
const STORY = [
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
/** What changes the whole sandbox, at the story's end. */
const LAST = ['POST /scenarios', 'POST /reset']
/** Whose credentials call an operation of the story (the admin's unless named). */
const AS: Record<string, string> = {
  'GET /whoami': AUTH.main,
  'GET /companies': AUTH.inactive,
  'POST /webhooks': AUTH.main,
}
/** The operations whose success example no call of a seeded sandbox answers, and why. */
const NOT_REPLAYED: Record<string, string> = {
  'GET /requests': "a request's headers and duration are its client's (the example's, curl's)",
  'POST /charges/{transaction_id}/expire': 'the story pays its one charge (so 409 here)',
  'POST /charges/{transaction_id}/cancel': 'the story pays its one charge (so 409 here)',
  'POST /pay': 'the story pays its one charge (so 409 here)',
  'POST /provider-webhook': 'the story pays its one charge (so 409 here)',
  'POST /transfers/{transaction_id}/settle': "the story's one transfer succeeds (so 409 here)",
  'POST /clock/reset': 'it answers real time',
  'POST /clock/advance': 'its example shows an expiry, and the story pays its one charge',
  'GET /webhooks/deliveries': "a delivery's attempts are its receiver's answers and timings",
  'POST /webhooks/deliveries/{delivery_id}/retry': "a delivery's attempts are its receiver's",
  'POST /webhooks/{webhook_id}/test':
    "a delivery's attempts are its receiver's answers and timings",
  'POST /webhooks/{webhook_id}/check': "the check's answers and timings are its receiver's",
  'GET /readiness': "its example is a whole suite's report, not this story's few calls",
}

/** Each operation of a document as the story calls it: its path with its parameters' examples, its body's example. */
function operations(
  doc: Json,
): { operation: string; path: string; method: string; json?: unknown }[] {
  const requests = new Map(examples(doc, 'request').map((e) => [e.operation, e.example]))
  return Object.entries<Json>(doc.paths).flatMap(([template, ops]) =>
    Object.entries<Json>(ops).map(([method, op]) => {
      const operation = `${method.toUpperCase()} ${template}`
      const exampleOf = (p: Json) => p.example ?? p.schema?.example
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        const param = (op.parameters ?? []).find((p: Json) => p.in === 'path' && p.name === name)
        expect(exampleOf(param ?? {}), `${operation}: {${name}} has no example`).toBeDefined()
        return encodeURIComponent(exampleOf(param))
      })
      // The query parameters that have an example say what the example's answer was asked.
      const query = new URLSearchParams(
        (op.parameters ?? [])
          .filter((p: Json) => p.in === 'query' && exampleOf(p) !== undefined)
          .map((p: Json) => [p.name, String(exampleOf(p))]),
      ).toString()
      return {
        operation,
        path: query ? `${path}?${query}` : path,
        method: method.toUpperCase(),
        json: requests.get(operation),
      }
    }),
  )
}

describe('a sandbox started as the examples say (SEED=docs, START_TIME, PUBLIC_URL)', () => {
  it("answers every operation of the examples' story with exactly the documented examples, errors included", async () => {
    const seeded = await startTestSandbox({ publicUrl: 'http://localhost:8080', seed: 'docs' })
    try {
      const contract = (await seeded.request('GET', '/openapi.json')).body
      const control = (await seeded.request('GET', '/_sandbox/openapi.json')).body
      const documented = (doc: Json, operation: string) =>
        examples(doc, 'response').find((e) => e.operation === operation)?.example
      const asked = (doc: Json, operation: string) =>
        examples(doc, 'request').find((e) => e.operation === operation)?.example
      const contractCall = async (method: string, path: string) => {
        const reply = await seeded.request(method, `/api/v1${path}`, {
          auth: AUTH.main,
          json: method === 'POST' ? asked(contract, `${method} ${path}`) : undefined,
        })
        expect(reply.body, `${method} ${path}`).toEqual(
          documented(contract, `${method} ${path} 200`),
        )
        return reply.body
      }
      await contractCall('GET', '/user/company')
      await contractCall('POST', '/hub/transactions/in')
      await contractCall('POST', '/hub/transactions/out')

      const ops = operations(control)
      const success = (operation: string) =>
        examples(control, 'response').find(
          (e) => e.operation.startsWith(`${operation} 2`) && e.named.length > 0,
        )
      const withExample = ops.filter((o) => success(o.operation))
      const named = new Set([...STORY, ...LAST, ...Object.keys(NOT_REPLAYED)])
      expect([...named].filter((o) => !ops.some((x) => x.operation === o))).toEqual([])
      const order = [
        ...STORY,
        ...withExample.map((o) => o.operation).filter((o) => !named.has(o)),
        ...LAST,
      ]
      const called: string[] = []
      for (const operation of order) {
        const op = ops.find((o) => o.operation === operation)!
        const expected = success(operation)!
        const reply = await seeded.request(op.method, `/_sandbox${op.path}`, {
          auth: AS[operation] ?? `Bearer ${seeded.adminToken}`,
          json: op.json,
        })
        expect(
          { status: reply.status, body: reply.body },
          `${operation}: its documented answer`,
        ).toEqual({ status: Number(expected.operation.split(' ').pop()), body: expected.example })
        called.push(operation)
      }
      // Every operation with a success example was compared with a real answer, or says why not.
      expect(
        withExample
          .map((o) => o.operation)
          .filter((o) => !called.includes(o) && !(o in NOT_REPLAYED)),
      ).toEqual([])

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
    }
    // Every operation of the document, twice: seconds alone, more on a loaded machine.
  })
})

describe("the contract's error examples", () => {
  it('are exactly what the sandbox answers, one for each way of reaching each documented status', async () => {
    const doc = (await sb.request('GET', '/openapi.json')).body
    sb.apply({ companies: [tenantDoc('no-perms', { permissions: [] })] })
    const requestExample = Object.fromEntries(
      examples(doc, 'request').map((e) => [`${e.method} ${e.path}`, e.example as Json]),
    )
    // Every way a test suite reaches an error of the contract; each operation keeps what it answers.
    const ways: { auth: string; body?: (example: Json) => Json; fault?: number }[] = [
      { auth: basic('sandbox-client', 'wrong-secret') },
      { auth: AUTH.inactive },
      { auth: basic('no-perms', 'no-perms-secret') },
      { auth: AUTH.main, body: (example) => ({ ...example, amount: 0 }) },
      { auth: AUTH.noProvider },
      { auth: AUTH.emptyBalance },
      { auth: AUTH.chargesOnly },
      { auth: AUTH.main, fault: 501 },
    ]
    const answered = new Map<string, Set<string>>()
    const documented = new Map<string, Set<string>>()
    for (const e of examples(doc, 'response').filter(
      (x) => Number(x.operation.split(' ').pop()) >= 400,
    )) {
      documented.set(e.operation, new Set(e.named.map((n) => JSON.stringify(n.value))))
    }
    for (const [path, ops] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(ops)) {
        const example = requestExample[`${method} ${path}`]
        for (const way of ways) {
          // An injected fault answers any status; it counts only where the operation declares it.
          if (way.fault && !op.responses[way.fault]) continue
          if (way.fault)
            await sb.admin('POST', '/faults', {
              operation:
                method === 'get' ? 'company' : path.endsWith('/in') ? 'charge' : 'transfer',
              status: way.fault,
              times: 1,
            })
          const json = example && (way.body ? way.body(example) : example)
          const reply = await sb.request(method.toUpperCase(), `/api/v1${path}`, {
            auth: way.auth,
            json,
          })
          if (reply.status < 400) continue
          const key = `${method.toUpperCase()} ${path} ${reply.status}`
          if (!answered.has(key)) answered.set(key, new Set())
          answered.get(key)!.add(reply.text)
        }
      }
    }
    expect(Object.fromEntries([...documented].map(([k, v]) => [k, [...v].sort()]))).toEqual(
      Object.fromEntries([...answered].map(([k, v]) => [k, [...v].sort()])),
    )
  })
})

describe("the control plane's examples, posted as they are", () => {
  it('succeed where they need no record that exists only after other calls', async () => {
    const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
    // These name a charge or a code that only a running sandbox has made.
    const needsRecords = new Set(['/pay', '/provider-webhook'])
    const standalone = examples(doc, 'request').filter(
      (e) => !e.path.includes('{') && !needsRecords.has(e.path),
    )
    expect(standalone.length).toBeGreaterThanOrEqual(7)
    for (const e of standalone) {
      const reply = await sb.admin(e.method.toUpperCase(), e.path, e.example)
      expect(reply.status, `${e.operation}: ${reply.text}`).toBeLessThan(300)
    }
  })
})
