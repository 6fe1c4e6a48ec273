// /docs "Try it out" starts from each operation's documented example: every request body has one,
// it is valid against its own schema, and the contract's are answered 200 as they are (the page's
// first click succeeds); every documented response example is valid against its schema too.
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closedDocument } from '../conformance.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

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

/** Each schema-level example of the document's request bodies (`request`) or responses, resolved through $ref and allOf. */
function examples(doc: Json, where: 'request' | 'response'): (Documented & { schema: Json })[] {
  const resolve = (s: Json): Json => (s.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()])  : s)
  const exampleOf = (s: Json): unknown => s.example ?? resolve(s).example ?? (s.allOf ?? []).map(exampleOf).find((e: unknown) => e !== undefined)
  const esc = (p: string) => p.replaceAll('~', '~0').replaceAll('/', '~1')
  return Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
    Object.entries<Json>(ops).flatMap(([method, op]) => {
      const bodies: [string, Json][] =
        where === 'request'
          ? op.requestBody ? [['requestBody', op.requestBody.content['application/json']]] : []
          : Object.entries<Json>(op.responses).filter(([, r]) => r.content).map(([status, r]) => [`responses/${status}`, r.content['application/json']])
      return bodies.map(([part, media]) => ({
        operation: `${method.toUpperCase()} ${path}${where === 'response' ? ` ${part.split('/')[1]}` : ''}`,
        path,
        method,
        pointer: `#/paths/${esc(path)}/${method}/${part.split('/').map(esc).join('/')}/content/application~1json/schema`,
        schema: media.schema,
        example: exampleOf(media.schema),
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

  it('documents only response examples that are valid against their schema', () => {
    const problems = validator(doc)
    for (const e of examples(doc, 'response').filter((x) => x.example !== undefined)) expect(problems(e.pointer, e.example), e.operation).toEqual([])
  })
})

describe("the contract's examples, posted as they are", () => {
  it('are answered 200 with the documented success shape', async () => {
    const doc = (await sb.request('GET', '/openapi.json')).body
    const posted = examples(doc, 'request')
    expect(posted.map((e) => e.operation).sort()).toEqual(['POST /hub/transactions/in', 'POST /hub/transactions/out'])
    const success = Object.fromEntries(examples(doc, 'response').map((e) => [e.operation, e.example]))
    for (const e of posted) {
      const reply = await sb.request('POST', `/api/v1${e.path}`, { auth: AUTH.main, json: e.example })
      expect(reply.status, `${e.operation}: ${reply.text}`).toBe(200)
      expect(Object.keys(reply.body).sort()).toEqual(Object.keys(success[`${e.operation} 200`] as object).sort())
    }
  })
})

describe("the control plane's examples, posted as they are", () => {
  it('succeed where they need no record that exists only after other calls', async () => {
    const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
    // These name a charge or a code that only a running sandbox has made.
    const needsRecords = new Set(['/pay', '/provider-webhook'])
    const standalone = examples(doc, 'request').filter((e) => !e.path.includes('{') && !needsRecords.has(e.path))
    expect(standalone.length).toBeGreaterThanOrEqual(7)
    for (const e of standalone) {
      const reply = await sb.admin(e.method.toUpperCase(), e.path, e.example)
      expect(reply.status, `${e.operation}: ${reply.text}`).toBeLessThan(300)
    }
  })
})
