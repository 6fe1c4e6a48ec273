// What clients are generated from must say what it means: every field of the control plane's
// document is described, and no named shape of either document is nullable in itself (a
// `.nullable()` on a registered zod schema made the component nullable everywhere it was used).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

type Json = Record<string, any>

/** Properties of every object schema in the document without a description, by where they are. */
function undescribed(doc: Json): string[] {
  const component = (ref: string) => doc.components.schemas[ref.split('/').pop()!]
  const described = (s: Json): boolean =>
    Boolean(
      s.description ||
        (s.allOf ?? []).some((x: Json) => x.description) ||
        (s.$ref && component(s.$ref).description),
    )
  const missing: string[] = []
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`))
    if (node === null || typeof node !== 'object') return
    const n = node as Json
    for (const [name, s] of Object.entries<Json>(n.properties ?? {}))
      if (!described(s)) missing.push(`${where}.${name}`)
    for (const [k, v] of Object.entries(n))
      if (k !== 'example' && k !== 'examples') walk(v, `${where}.${k}`)
  }
  walk(doc.components, 'components')
  walk(doc.paths, 'paths')
  return missing
}

const nullableComponents = (doc: Json) =>
  Object.entries<Json>(doc.components.schemas)
    .filter(([, s]) => (Array.isArray(s.type) && s.type.includes('null')) || s.nullable === true)
    .map(([name]) => name)

describe('the published documents', () => {
  it('describe every field of the control plane', async () => {
    const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
    expect(undescribed(doc)).toEqual([])
  })

  it.each(['/openapi.json', '/_sandbox/openapi.json'])(
    '%s makes no named shape nullable in itself',
    async (path) => {
      const doc = (await sb.request('GET', path)).body
      expect(nullableComponents(doc)).toEqual([])
    },
  )

  it('the check finds an undescribed field and a nullable component', () => {
    const doc = {
      components: {
        schemas: {
          A: {
            type: ['object', 'null'],
            properties: { x: { type: 'string' }, y: { type: 'string', description: 'y' } },
          },
        },
      },
      paths: {},
    }
    expect(undescribed(doc)).toEqual(['components.schemas.A.x'])
    expect(nullableComponents(doc)).toEqual(['A'])
  })
})
