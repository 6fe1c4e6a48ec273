// Request body validation in the two styles of A3. The route's own zod schema is the only
// definition of a valid body (it is also what /openapi.json publishes); this module renders its
// issues either as `{detail: "<field>: <reason>"}` (simple) or as FastAPI's list of pydantic
// errors (fastapi), and applies pydantic's lax coercion in the fastapi style.
import type { z } from 'zod'
import { AppError } from '../domain/errors.js'
import type { Settings } from '../domain/types.js'
import { ValidationErrorList } from './errors.js'
import { pythonJsonProblem } from './json-error.js'

export type Style = Settings['validation_errors']

/** What the request carried, before validation. */
export type RawBody =
  | { kind: 'json'; value: unknown }
  | { kind: 'empty' }
  | { kind: 'invalid-json'; text: string }
  | { kind: 'not-json'; text: string }

export interface PydanticError {
  type: string
  loc: (string | number)[]
  msg: string
  input: unknown
  ctx?: Record<string, unknown>
}

/** Extra facts a schema check attaches (`params`) so both styles can describe it exactly. */
export interface IssueParams {
  type: string
  msg: string
  ctx?: Record<string, unknown>
}

const fail = (style: Style, simple: string, errors: PydanticError[]): never => {
  throw style === 'simple' ? new AppError('invalid_input', simple) : new ValidationErrorList(errors)
}

/** Step 1 of A3: a body that is not JSON fails before authentication. */
export function rejectInvalidJson(body: RawBody, style: Style): void {
  if (body.kind !== 'invalid-json') return
  const { msg, pos } = pythonJsonProblem(body.text)
  fail(style, 'body: invalid JSON', [{ type: 'json_invalid', loc: ['body', pos], msg: 'JSON decode error', input: {}, ctx: { error: msg } }])
}

/** Pydantic's lax int: "100", " 1_000 ", "10.0", 10.0 and booleans become integers. */
export function laxInt(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v !== 'string') return v
  const m = /^\s*([+-]?)(\d+(?:_\d+)*)(?:\.0*)?\s*$/.exec(v)
  return m ? Number(`${m[1]}${m[2]!.replaceAll('_', '')}`) : v
}

const valueAt = (root: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as any)[k as any] : undefined), root)

const literalList = (values: readonly unknown[]) => {
  const q = values.map((v) => `'${String(v)}'`)
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}` : (q[0] ?? '')
}

/** Maps one zod issue to the pydantic error FastAPI would send for the same input. */
function toPydantic(issue: z.core.$ZodIssue, input: unknown): PydanticError {
  const path = issue.path as (string | number)[]
  const loc = ['body', ...path]
  const value = valueAt(input, path)
  if (value === undefined) return { type: 'missing', loc, msg: 'Field required', input }
  const params = (issue as { params?: IssueParams }).params
  if (params) return { type: params.type, loc, msg: params.msg, input: value, ...(params.ctx && { ctx: params.ctx }) }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'string') return { type: 'string_type', loc, msg: 'Input should be a valid string', input: value }
      if (typeof value === 'string') {
        return { type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input: value }
      }
      return { type: 'int_type', loc, msg: 'Input should be a valid integer', input: value }
    case 'invalid_value': {
      const expected = literalList(issue.values)
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input: value, ctx: { expected } }
    }
    case 'too_small':
      return { type: 'greater_than', loc, msg: `Input should be greater than ${issue.minimum}`, input: value, ctx: { gt: Number(issue.minimum) } }
    case 'too_big':
      return {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${issue.maximum}`,
        input: value,
        ctx: { le: Number(issue.maximum) },
      }
    default:
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input: value, ctx: { error: {} } }
  }
}

function simpleMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String).join('.') || 'body'
  return valueAt(input, issue.path as PropertyKey[]) === undefined ? `${path}: field required` : `${path}: ${issue.message}`
}

/**
 * A value that fits no branch of a union (a Provider or null, say) is reported by the branch it
 * came closest to: the first whose issues lie inside the value, not on its type, so a client
 * reads "in.name: ..." rather than "Invalid input". Other issues pass as they are.
 */
export function closestIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
    const branch = issue.errors.find((b) => !b.every((i) => i.path.length === 0 && i.code === 'invalid_type')) ?? issue.errors[0]!
    return closestIssues(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] })))
  })
}

/** Steps 4 of A3: checks the body against the route's schema; throws a 422 in the scenario's style. */
export function validateBody<S extends z.ZodType>(schema: S, body: RawBody, style: Style, laxIntFields: readonly string[] = []): z.output<S> {
  if (body.kind === 'empty' || (body.kind === 'json' && body.value === null)) {
    fail(style, 'body: field required', [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }])
  }
  const value = body.kind === 'json' ? body.value : body.kind === 'not-json' ? body.text : undefined
  if (body.kind !== 'json' || typeof value !== 'object' || Array.isArray(value)) {
    const msg = 'Input should be a valid dictionary or object to extract fields from'
    fail(style, 'body: must be a JSON object', [{ type: 'model_attributes_type', loc: ['body'], msg, input: value }])
  }
  let candidate = value as Record<string, unknown>
  if (style === 'fastapi' && laxIntFields.length) {
    candidate = { ...candidate }
    for (const f of laxIntFields) if (Object.hasOwn(candidate, f)) candidate[f] = laxInt(candidate[f])
  }
  const parsed = schema.safeParse(candidate)
  if (parsed.success) return parsed.data
  // One error per field, the first check that failed, as pydantic reports them.
  const seen = new Set<string>()
  const issues = closestIssues(parsed.error.issues).filter((i) => {
    const key = i.path.map(String).join('.')
    return seen.has(key) ? false : (seen.add(key), true)
  })
  return fail(style, simpleMessage(issues[0]!, value), issues.map((i) => toPydantic(i, value)))
}
