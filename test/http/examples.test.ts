// /docs "Try it out" starts from each operation's documented example: every request body has one,
// it is valid against its own schema, and the contract's are answered 200 as they are (the page's
// first click succeeds); every documented response example is valid against its schema too.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { AUTH, basic, startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'
import { examples, type Json, validator } from './documented.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox({ publicUrl: 'http://localhost:8080' })))
afterAll(() => sb.close())

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
