// The Python package's TypedDicts generator (scripts/python-types.ts), on documents made to hold
// the shapes it must get right; the real document's output is checked by generated.test.ts
// (stale), the package's mypy --strict (its helpers are typed by it) and its tests (at run time).
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { pythonSchemas, type Document, type Schema } from '../../scripts/python-types.js'

const doc = (schemas: Record<string, Schema>, paths: Document['paths'] = {}): Document => ({
  components: { schemas },
  paths,
})

describe('pythonSchemas', () => {
  it('writes a required field plainly and an optional one in a total=False class', () => {
    const out = pythonSchemas(
      doc({
        Thing: {
          type: 'object',
          description: 'A thing.',
          properties: {
            id: { type: 'string', description: 'Its "id".' },
            note: { type: ['string', 'null'] },
          },
          required: ['id'],
        },
      }),
    )
    expect(out).toContain('class _ThingRequired(TypedDict):\n    id: str\n    """Its \\"id\\"."""')
    expect(out).toContain(
      'class Thing(_ThingRequired, total=False):\n    """A thing."""\n\n    note: str | None',
    )
  })

  it('types enums, nullable enums, number unions, arrays, maps and references', () => {
    const out = pythonSchemas(
      doc({
        Ref: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
        All: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['ok', 'no'] },
            reason: { type: ['string', 'null'], enum: ['x', null] },
            code: {
              anyOf: [
                { type: 'number', enum: [500] },
                { type: 'number', enum: [503] },
              ],
            },
            list: { type: 'array', items: { $ref: '#/components/schemas/Ref' } },
            described: { allOf: [{ $ref: '#/components/schemas/Ref' }, { description: 'd' }] },
            maybe: { anyOf: [{ $ref: '#/components/schemas/Ref' }, { type: 'null' }] },
            headers: { type: ['object', 'null'], additionalProperties: { type: 'string' } },
            data: { type: 'object', additionalProperties: {} },
            body: {},
          },
          required: [
            'status',
            'reason',
            'code',
            'list',
            'described',
            'maybe',
            'headers',
            'data',
            'body',
          ],
        },
      }),
    )
    for (const line of [
      'status: Literal["ok", "no"]',
      'reason: Literal["x"] | None',
      'code: Literal[500, 503]',
      'list: list[Ref]',
      'described: Ref',
      'maybe: Ref | None',
      'headers: dict[str, str] | None',
      'data: dict[str, Any]',
      'body: Any',
    ]) {
      expect(out).toContain(`    ${line}\n`)
    }
    expect(out).toContain('from typing import Any, Literal, TypedDict')
  })

  it('names inline objects after where they sit, and uses the call syntax for a keyword key', () => {
    const json = (schema: Schema) => ({ content: { 'application/json': { schema } } })
    const provider = { anyOf: [{ $ref: '#/components/schemas/Provider' }, { type: 'null' }] }
    const page = {
      type: 'object',
      properties: {
        data: {
          type: 'array',
          items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        },
      },
      required: ['data'],
    }
    const out = pythonSchemas(
      doc(
        {
          Provider: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
          },
        },
        {
          '/users/{user_id}/providers': {
            put: {
              requestBody: json({ type: 'object', properties: { in: provider } }),
              responses: { '200': json(page) },
            },
          },
        },
      ),
    )
    expect(out).toContain(
      'PutUsersUserIdProvidersBody = TypedDict(\n    "PutUsersUserIdProvidersBody",\n    {\n        "in": "Provider | None",\n    },\n    total=False,\n)',
    )
    expect(out).toContain(
      'class PutUsersUserIdProvidersResponse(TypedDict):\n    data: list[PutUsersUserIdProvidersResponseDataItem]',
    )
    expect(out).toContain('class PutUsersUserIdProvidersResponseDataItem(TypedDict):\n    n: int')
  })

  it('stops at a shape it does not know, naming where it is', () => {
    expect(() =>
      pythonSchemas(
        doc({ Odd: { type: 'object', properties: { x: { $ref: '#/components/schemas/Nope' } } } }),
      ),
    ).toThrow('#/components/schemas/Odd/properties/x: unknown $ref')
    expect(() =>
      pythonSchemas(doc({ Odd: { type: 'object', properties: { x: { type: 'tuple' } } } })),
    ).toThrow('#/components/schemas/Odd/properties/x: type tuple')
  })

  it('writes Python that compiles', () => {
    const out = pythonSchemas(
      doc({
        A: {
          type: 'object',
          description: 'ends in a quote "',
          properties: { in: { type: 'string' }, b: { type: 'integer', description: 'a \\ b """' } },
          required: ['b'],
        },
      }),
    )
    expect(() =>
      execFileSync(
        'python3',
        ['-c', 'import sys; compile(sys.stdin.read(), "schemas.py", "exec")'],
        { input: out },
      ),
    ).not.toThrow()
  })
})
