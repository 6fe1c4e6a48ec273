// The table of helpers (src/client/helpers.ts) read against the control plane's document: each
// helper's operation, its arguments with the fields they carry and their Python types, and what it
// answers. A row the document does not bear out (an operation, a field or a parameter it does not
// have, a required field no argument carries) stops the generation, naming the helper.
import type { ByHand, Call, Helper } from '../../src/client/helpers.js'
import {
  type Document,
  type Operation,
  pascal,
  type PythonTypes,
  type Schema,
} from '../python-types.js'

export interface Field {
  key: string
  required: boolean
  /** Its Python type, as schemas.py writes it. */
  python: string
}

export type Resolved =
  | { kind: 'path'; in: 'path'; name: string; ownUser: boolean }
  | ({ kind: 'field'; in: 'body' | 'query'; name: string } & Field)
  /** The whole body: `python` is its TypedDict. */
  | { kind: 'all'; in: 'body'; name: string; python: string; fields: Field[] }
  | { kind: 'rest'; in: 'body' | 'query'; name: string; fields: Field[] }

export interface CallModel {
  helper: Call
  method: string
  path: string
  args: Resolved[]
  /** The body's TypedDict in schemas.py, when the operation takes one. */
  body?: string
  /** The 2xx answer: its status, its schema's name where it has one, its Python type. */
  answer: { status: string; ref?: string; python: string }
  /** The field answered instead (`answer: { field }`), with its Python type. */
  field?: Field
}

export type Model = CallModel | { helper: ByHand }

export const isCall = (m: Model): m is CallModel => 'operation' in m.helper
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
export const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
/** The Python class of a group: `charges` → `ChargeHelpers`, `companies` → `CompanyHelpers`. */
export const groupClass = (group: string) =>
  `${pascal(group).replace(/ies$/, 'y').replace(/s$/, '')}Helpers`

const refName = (s: Schema | undefined) => s?.$ref?.replace('#/components/schemas/', '')

function resolve(helper: Call, doc: Document, types: PythonTypes): CallModel {
  const fail = (why: string): never => {
    throw new Error(
      `src/client/helpers.ts, ${helper.group ? `${helper.group}.` : ''}${helper.name}: ${why}`,
    )
  }
  const [METHOD, path] = helper.operation.split(' ') as [string, string]
  const method = METHOD.toLowerCase()
  const op: Operation | undefined = doc.paths?.[path]?.[method]
  if (!op) return fail(`the document has no ${helper.operation}`)
  const prefix = pascal(method) + pascal(path)
  const shapeOf = (name: string) =>
    types.shapes.find((s) => s.name === name) ?? fail(`no shape ${name} in schemas.py`)

  const bodySchema = op.requestBody?.content?.['application/json']?.schema
  const body = bodySchema ? (refName(bodySchema) ?? `${prefix}Body`) : undefined
  const bodyFields: Field[] = body
    ? shapeOf(body).fields.map((f) => ({ key: f.key, required: f.required, python: f.type }))
    : []
  const queryFields: Field[] = (op.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => ({
      key: p.name,
      required: p.required === true,
      python: types.type(
        p.schema ?? {},
        `${prefix}${pascal(p.name)}`,
        `${helper.operation} ?${p.name}`,
      ),
    }))
  const fieldsIn = (where: 'body' | 'query') => (where === 'body' ? bodyFields : queryFields)

  const taken = { body: new Set<string>(), query: new Set<string>() }
  const args = (helper.args ?? []).map((arg): Resolved => {
    if (arg.in === 'path') {
      if (!(op.parameters ?? []).some((p) => p.in === 'path' && p.name === arg.name))
        fail(`${path} has no path parameter ${arg.name}`)
      return { kind: 'path', in: 'path', name: arg.name, ownUser: arg.optional === 'own user' }
    }
    if (arg.in === 'body' && !body) fail(`${helper.operation} takes no body`)
    const fields = fieldsIn(arg.in)
    if ('all' in arg) {
      bodyFields.forEach((f) => taken.body.add(f.key))
      return { kind: 'all', in: 'body', name: arg.all, python: body!, fields: bodyFields }
    }
    if ('rest' in arg) {
      for (const key of arg.omit ?? [])
        if (!fields.some((f) => f.key === key))
          fail(`omits ${key}, which ${helper.operation} has not`)
      const rest = fields.filter((f) => !taken[arg.in].has(f.key) && !arg.omit?.includes(f.key))
      rest.forEach((f) => taken[arg.in].add(f.key))
      return { kind: 'rest', in: arg.in, name: arg.rest, fields: rest }
    }
    const field =
      fields.find((f) => f.key === arg.name) ??
      fail(`${helper.operation} has no ${arg.in} field ${arg.name}`)
    if (field.required && arg.optional) fail(`${arg.name} is required by ${helper.operation}`)
    taken[arg.in].add(arg.name)
    return { kind: 'field', in: arg.in, name: arg.name, ...field, required: !arg.optional }
  })
  for (const p of op.parameters ?? [])
    if (p.in === 'path' && !args.some((a) => a.kind === 'path' && a.name === p.name))
      fail(`no argument for the path's {${p.name}}`)
  for (const f of bodyFields)
    if (f.required && !taken.body.has(f.key)) fail(`no argument carries the required ${f.key}`)
  for (const name of helper.what.match(/\{(\w+)\}/g) ?? [])
    if (!args.some((a) => a.name === name.slice(1, -1))) fail(`what names ${name}, no argument`)

  const [status, response] =
    Object.entries(op.responses ?? {}).find(([s]) => s.startsWith('2')) ?? fail('no 2xx answer')
  const schema = response.content?.['application/json']?.schema
  if (helper.answer !== 'nothing' && !schema) fail(`${helper.operation} answers no JSON`)
  const ref = refName(schema)
  const answer = {
    status,
    ...(ref && { ref }),
    python: schema ? (ref ?? `${prefix}Response`) : 'None',
  }
  const model: CallModel = { helper, method, path, args, ...(body && { body }), answer }
  if (typeof helper.answer === 'object') {
    const key = helper.answer.field
    const f = shapeOf(answer.python).fields.find((x) => x.key === key)
    if (!f?.required) fail(`${answer.python} has no required field ${key}`)
    model.field = { key, required: true, python: f!.type }
  }
  return model
}

export function helperModel(helpers: Helper[], doc: Document, types: PythonTypes): Model[] {
  return helpers.map((helper) => ('operation' in helper ? resolve(helper, doc, types) : { helper }))
}

/** The groups in the table's order, each with its helpers; '' holds the control's own. */
export function groups(models: Model[]): Map<string, Model[]> {
  const by = new Map<string, Model[]>([['', []]])
  for (const m of models) {
    const g = m.helper.group ?? ''
    by.set(g, [...(by.get(g) ?? []), m])
  }
  return by
}
