// Every value a client sends is bounded, and every bound the documents publish is the one the
// sandbox enforces: this walks /openapi.json, /_sandbox/openapi.json and the scenario files'
// settings, so a new field is covered without being named here. A string or a list with no
// published bound (or a path's id without one: `idParam()`) fails the first test (hostile input is normal: nothing stored grows without
// limit); a bound published but not enforced (`.openapi({ maxLength })` without `.max()`) fails
// the second (and a contract's string bound refused with another number than the published one);
// one enforced without pydantic's error for it (the `fastapi` style) fails the third; a contract
// string's length counted otherwise than in code points (as pydantic counts) fails the fourth.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, storeSnapshot, type TestSandbox } from '../harness.js'

type Json = Record<string, any>
type Step = string | number
interface Bound {
  /** Where the value sits in the body (or the parameter's name). */
  at: Step[]
  rule: string
  /** A value just past the bound. */
  past: unknown
}

let sb: TestSandbox
const docs: Record<string, Json> = {}
beforeAll(async () => {
  sb = await startTestSandbox()
  docs.contract = (await sb.request('GET', '/openapi.json')).body
  docs.control = (await sb.request('GET', '/_sandbox/openapi.json')).body
})
afterAll(() => sb.close())

const SCENARIO_SCHEMA: Json = JSON.parse(
  readFileSync(new URL('../../scenarios/scenario.schema.json', import.meta.url), 'utf8'),
)

/** The strings a body may carry without a length, and what bounds each instead. */
const BOUNDED_OTHERWISE: Record<string, string> = {
  'POST /hub/transactions/in payload': 'a BR Code: it must parse, each field within its length',
  'POST /hub/transactions/out pix_key': "the rules of its pix_type (an e-mail's 77 characters...)",
  'settings timezone': 'an IANA time zone name',
}

/** The schema a `$ref` names, in an OpenAPI document or a JSON Schema. */
const resolve = (doc: Json, s: Json): Json =>
  s?.$ref
    ? resolve(
        doc,
        s.$ref.startsWith('#/components/')
          ? doc.components.schemas[s.$ref.split('/').pop()]
          : s.$ref
              .split('/')
              .slice(1)
              .reduce((n: Json, k: string) => n[k], doc),
      )
    : s

/** Each bound under `schema` (and each string or list with none, in `unbounded`). */
function bounds(doc: Json, schema: Json, at: Step[], unbounded: Step[][], depth = 0): Bound[] {
  const s = resolve(doc, schema)
  if (!s || typeof s !== 'object' || depth > 8) return []
  const found: Bound[] = []
  for (const branch of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
    found.push(...bounds(doc, branch, at, unbounded, depth + 1))
  const types = [s.type].flat()
  if (types.includes('string')) {
    if (s.maxLength !== undefined)
      found.push({ at, rule: `maxLength ${s.maxLength}`, past: 'a'.repeat(s.maxLength + 1) })
    else if (!s.enum && s.const === undefined && !s.pattern && !s.format) unbounded.push(at)
    if (s.minLength > 0)
      found.push({ at, rule: `minLength ${s.minLength}`, past: 'a'.repeat(s.minLength - 1) })
  }
  if (types.includes('integer') || types.includes('number')) {
    const step = types.includes('integer') ? 1 : 0.5
    if (s.maximum !== undefined)
      found.push({ at, rule: `maximum ${s.maximum}`, past: s.maximum + step })
    if (s.exclusiveMaximum !== undefined)
      found.push({ at, rule: `exclusiveMaximum ${s.exclusiveMaximum}`, past: s.exclusiveMaximum })
    if (s.minimum !== undefined)
      found.push({ at, rule: `minimum ${s.minimum}`, past: s.minimum - step })
    if (s.exclusiveMinimum !== undefined)
      found.push({ at, rule: `exclusiveMinimum ${s.exclusiveMinimum}`, past: s.exclusiveMinimum })
  }
  if (types.includes('array')) {
    const item = resolve(doc, s.items ?? {})
    const one = item.example ?? item.enum?.[0] ?? (item.type === 'integer' ? 1 : 'a')
    if (s.maxItems !== undefined)
      found.push({ at, rule: `maxItems ${s.maxItems}`, past: Array(s.maxItems + 1).fill(one) })
    else unbounded.push(at)
    found.push(...bounds(doc, s.items ?? {}, [...at, 0], unbounded, depth + 1))
  }
  for (const [name, property] of Object.entries<Json>(s.properties ?? {}))
    found.push(...bounds(doc, property, [...at, name], unbounded, depth + 1))
  return found
}

/** `body` with `value` at `at`, the objects and lists on the way made where missing. */
function withValue(body: unknown, at: Step[], value: unknown): unknown {
  if (at.length === 0) return value
  const [step, ...rest] = at
  const copy: Json = Array.isArray(body) ? [...body] : { ...(body as Json) }
  copy[step!] = withValue(copy[step!] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value)
  return copy
}

interface Operation {
  name: string
  method: string
  /** The path to call, its ids replaced. */
  url: (query?: string) => string
  auth: string
  example: unknown
  body: Bound[]
  params: { name: string; in: string; bound: Bound }[]
  unbounded: string[]
}

function operations(plane: 'contract' | 'control'): Operation[] {
  const doc = docs[plane]!
  const prefix = plane === 'contract' ? '/api/v1' : '/_sandbox'
  return Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
    Object.entries<Json>(ops).map(([method, op]) => {
      const name = `${method.toUpperCase()} ${path}`
      const media = op.requestBody?.content['application/json']
      const unbounded: Step[][] = []
      const body = media ? bounds(doc, media.schema, [], unbounded) : []
      // A path's ids are bounded like a body's strings; a query's filters are only compared.
      const params = (op.parameters ?? []).flatMap((p: Json) =>
        bounds(doc, p.schema, [p.name], p.in === 'path' ? unbounded : []).map((bound) => ({
          name: p.name,
          in: p.in,
          bound,
        })),
      )
      return {
        name,
        method: method.toUpperCase(),
        url: (query = '') => `${prefix}${path.replace(/\{\w+\}/g, 'x')}${query}`,
        auth: plane === 'contract' ? AUTH.main : `Bearer ${sb.adminToken}`,
        example: media && (media.example ?? resolve(doc, media.schema).example ?? {}),
        body,
        params,
        unbounded: unbounded.map((at) => `${name} ${at.join('.')}`),
      }
    }),
  )
}

describe('what a client sends', () => {
  it('is bounded in the documents: every string and list of a body, and every setting', () => {
    const settings = SCENARIO_SCHEMA.properties.settings
    const unbounded: Step[][] = []
    bounds(SCENARIO_SCHEMA, settings, [], unbounded)
    const found = [
      ...operations('contract').flatMap((o) => o.unbounded),
      ...operations('control').flatMap((o) => o.unbounded),
      ...unbounded.map((at) => `settings ${at.join('.')}`),
    ]
    expect(found.filter((f) => !(f in BOUNDED_OTHERWISE))).toEqual([])
    expect(Object.keys(BOUNDED_OTHERWISE).filter((k) => !found.includes(k))).toEqual([])
  })

  it.each(['contract', 'control'] as const)(
    "is refused past each bound the %s's document publishes, with 422, writing nothing",
    async (plane) => {
      let checked = 0
      for (const op of operations(plane)) {
        for (const bound of op.body) {
          const before = storeSnapshot(sb)
          const reply = await sb.request(op.method, op.url(), {
            auth: op.auth,
            json: withValue(op.example, bound.at, bound.past),
          })
          expect(reply.status, `${op.name} ${bound.at.join('.')} ${bound.rule}`).toBe(422)
          expect(storeSnapshot(sb), `${op.name} ${bound.at.join('.')}`).toEqual(before)
          // The contract's refusal says the bound its document publishes (docs/CONTRACT.md).
          const [rule, n] = bound.rule.split(' ')
          if (plane === 'contract' && rule === 'maxLength')
            expect(reply.body.detail, `${op.name} ${bound.at.join('.')}`).toBe(
              `${bound.at.join('.')}: must be at most ${n} characters`,
            )
          checked++
        }
        // An empty path segment is another path, not a short id.
        for (const { name, in: where, bound } of op.params.filter(
          (p) => p.in === 'query' || !p.bound.rule.startsWith('min'),
        )) {
          const value = encodeURIComponent(String(bound.past))
          const url =
            where === 'query' ? op.url(`?${name}=${value}`) : op.url().replace('/x', `/${value}`)
          const reply = await sb.request(op.method, url, { auth: op.auth, json: op.example })
          expect(reply.status, `${op.name} ${where} ${name} ${bound.rule}`).toBe(422)
          checked++
        }
      }
      // The contract publishes what FastAPI's document does: the descriptions' 140 characters.
      expect(checked).toBeGreaterThan(plane === 'contract' ? 1 : 40)
    },
    // About sixty calls, each comparing the whole store: seconds alone, more on a loaded machine;
    // the suite's bound is about hangs (test/hang.ts).
  )

  it("is refused past each bound the contract's document publishes as FastAPI refuses it, in the fastapi style", async () => {
    // pydantic's error past each kind of bound FastAPI publishes (a rule written for the simple
    // style only answers a `value_error` in the fastapi one).
    const PYDANTIC: Record<string, string> = {
      maxLength: 'string_too_long',
      minLength: 'string_too_short',
      maximum: 'less_than_equal',
      exclusiveMaximum: 'less_than',
      minimum: 'greater_than_equal',
      exclusiveMinimum: 'greater_than',
      maxItems: 'too_long',
    }
    sb.apply({ settings: { validation_errors: 'fastapi' } })
    try {
      let checked = 0
      for (const op of operations('contract')) {
        for (const bound of op.body) {
          const reply = await sb.request(op.method, op.url(), {
            auth: op.auth,
            json: withValue(op.example, bound.at, bound.past),
          })
          const [error] = Array.isArray(reply.body?.detail) ? reply.body.detail : []
          expect(
            { status: reply.status, type: error?.type, loc: error?.loc },
            `${op.name} ${bound.at.join('.')} ${bound.rule}: ${reply.text}`,
          ).toEqual({
            status: 422,
            type: PYDANTIC[bound.rule.split(' ')[0]!],
            loc: ['body', ...bound.at],
          })
          if (bound.rule.startsWith('maxLength '))
            expect(error.ctx, `${op.name} ${bound.at.join('.')}: pydantic's ctx`).toEqual({
              max_length: Number(bound.rule.split(' ')[1]),
            })
          checked++
        }
      }
      expect(checked).toBeGreaterThan(1)
    } finally {
      sb.apply({ settings: { validation_errors: 'simple' } })
    }
  })

  it("counts a contract string's length as pydantic does, in code points: an emoji is one", async () => {
    let checked = 0
    for (const op of operations('contract')) {
      for (const bound of op.body.filter((b) => b.rule.startsWith('maxLength '))) {
        const n = Number(bound.rule.split(' ')[1])
        const at = (value: string) =>
          sb.request(op.method, op.url(), {
            auth: op.auth,
            json: withValue(op.example, bound.at, value),
          })
        const where = `${op.name} ${bound.at.join('.')}`
        expect((await at('😀'.repeat(n))).status, `${where}: ${n} emoji`).toBe(200)
        expect((await at('😀'.repeat(n + 1))).status, `${where}: ${n + 1} emoji`).toBe(422)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(1)
  })

  it('is refused past each bound of the scenario settings, applied inline', async () => {
    const unbounded: Step[][] = []
    const found = bounds(SCENARIO_SCHEMA, SCENARIO_SCHEMA.properties.settings, [], unbounded)
    expect(found.length).toBeGreaterThan(3)
    for (const bound of found) {
      const settings = withValue({}, bound.at, bound.past)
      const reply = await sb.admin('POST', '/scenarios', { document: { settings } })
      expect(reply.status, `${bound.at.join('.')} ${bound.rule}: ${reply.text}`).toBe(422)
    }
  })
})
