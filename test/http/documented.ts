// What a published document (/openapi.json, /_sandbox/openapi.json) says of its operations: each
// request body's and answer's examples, a validator of values against the document's closed
// schemas, and each operation as its examples call it (path ids, query, body). Read by the
// examples' tests (examples.test.ts, examples-story.test.ts).
import { Ajv2020 } from 'ajv/dist/2020.js'
import { expect } from 'vitest'
import { closedDocument } from '../conformance.js'

export type Json = Record<string, any>

export interface Documented {
  operation: string
  path: string
  method: string
  /** Where the example's schema sits in the document, as a JSON pointer. */
  pointer: string
  schema: Json
  named: { name: string; value: unknown }[]
  /** The first of `named`. */
  example: unknown
}

/** Each example of the document's request bodies (`request`) or responses: on the media type, or on its schema (resolved through $ref and allOf). */
export function examples(doc: Json, where: 'request' | 'response'): Documented[] {
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

/** The problems of `value` against the schema at `pointer` in `doc`, every object closed. */
export function validator(doc: Json) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false })
  ajv.addSchema(closedDocument(doc), 'doc')
  return (pointer: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `doc${pointer}` })
    return validate(value) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message}`)
  }
}

export interface Called {
  operation: string
  /** The path with its parameters' examples, and the query of those that have one. */
  path: string
  method: string
  json?: unknown
}

/** Each operation of a document as its examples call it: its path with its parameters' examples, its body's example. */
export function operations(doc: Json): Called[] {
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

/**
 * Whether an operation of the control document takes the admin token only, as its `security`
 * declares (none declared: anyone may call it).
 */
export const adminOnly = (op: Json): boolean =>
  !((op.security as Json[] | undefined) ?? [{}]).some((s) => !('adminToken' in s))
