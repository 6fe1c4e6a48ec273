// Request body validation in the two styles of docs/CONTRACT.md#validation-styles. The route's own zod schema is the only
// definition of a valid body (it is also what /openapi.json publishes); this module renders its
// issues either as `{detail: "<field>: <reason>"}` (simple) or as FastAPI's list of pydantic
// errors (fastapi), and applies pydantic's lax coercion in the fastapi style.
import type { z } from 'zod'
import { AppError } from '../domain/errors.js'
import type { Settings } from '../domain/types.js'
import { ValidationErrorList } from './errors.js'
import { Unwritable } from './python-dumps.js'
import { toJs, type JsonProblem, type PyValue } from './python-json.js'
import { decodeUtf8Strict } from './python-text.js'
import { INT_ERRORS, pydanticInt, strAsInt, type IntError } from './pydantic-int.js'

export type Style = Settings['validation_errors']

/** What the request carried, before validation (fastapi-body.ts reads a contract body). */
export type RawBody =
  /** `text`: the decoded body (a contract body keeps it for the journal). */
  | { kind: 'json'; value: unknown; text?: string; exact?: () => PyValue }
  | { kind: 'empty' }
  | { kind: 'invalid-json'; problem: JsonProblem; text?: string }
  /** Not read as JSON (another content type): validated as the bytes themselves. */
  | { kind: 'not-json'; bytes: Buffer }

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

const fail = (style: Style, simple: string, errors: () => PydanticError[]): never => {
  throw style === 'simple'
    ? new AppError('invalid_input', simple)
    : new ValidationErrorList(errors())
}

/** The first check (docs/CONTRACT.md#order-of-checks): a body that is not JSON fails before authentication. */
export function rejectInvalidJson(body: RawBody, style: Style): void {
  if (body.kind !== 'invalid-json') return
  const { msg, pos } = body.problem
  fail(style, 'body: invalid JSON', () => [
    {
      type: 'json_invalid',
      loc: ['body', pos],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: msg },
    },
  ])
}

/** A lax field pydantic refused: zod sees this, and the error comes from pydantic's reading. */
const LAX_FAILED = Symbol('lax int refused')

/**
 * Pydantic's lax int over what JSON.parse gave: "100", " 1_000 ", "10.0" and booleans become
 * integers. Numbers are left to the schema (an integral float is an integer to both).
 */
export function laxInt(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v !== 'string') return v
  const r = strAsInt(v)
  return 'int' in r ? Number(r.int) : LAX_FAILED
}

/** The value at `path`, in a plain value or in Python's reading of the body (maps). */
const valueAt = (root: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) =>
      v instanceof Map
        ? v.get(k)
        : v !== null && typeof v === 'object'
          ? (v as any)[k as any]
          : undefined,
    root,
  )

const literalList = (values: readonly unknown[]) => {
  const q = values.map((v) => `'${String(v)}'`)
  return q.length > 1 ? `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}` : (q[0] ?? '')
}

/**
 * Maps one zod issue to the pydantic error FastAPI would send for the same input; `laxErrors`
 * are the errors pydantic's lax int gave for fields the schema saw as refused.
 */
function toPydantic(
  issue: z.core.$ZodIssue,
  input: unknown,
  laxErrors: Map<PropertyKey, IntError>,
): PydanticError {
  const path = issue.path as (string | number)[]
  const loc = ['body', ...path]
  const value = valueAt(input, path)
  if (value === undefined) return { type: 'missing', loc, msg: 'Field required', input }
  const lax = path.length === 1 ? laxErrors.get(path[0]!) : undefined
  if (lax) return { type: lax, loc, msg: INT_ERRORS[lax], input: value }
  const params = (issue as { params?: IssueParams }).params
  if (params)
    return {
      type: params.type,
      loc,
      msg: params.msg,
      input: value,
      ...(params.ctx && { ctx: params.ctx }),
    }
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'string')
        return { type: 'string_type', loc, msg: 'Input should be a valid string', input: value }
      if (typeof value === 'string') {
        return {
          type: 'int_parsing',
          loc,
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: value,
        }
      }
      return { type: 'int_type', loc, msg: 'Input should be a valid integer', input: value }
    case 'invalid_value': {
      const expected = literalList(issue.values)
      return {
        type: 'literal_error',
        loc,
        msg: `Input should be ${expected}`,
        input: value,
        ctx: { expected },
      }
    }
    case 'too_small':
    case 'too_big':
      return boundError(issue, loc, value)
    default:
      return {
        type: 'value_error',
        loc,
        msg: `Value error, ${issue.message}`,
        input: value,
        ctx: { error: {} },
      }
  }
}

/** Pydantic's words for each numeric bound (Field(gt=), ge=, lt=, le=), exclusive or not. */
const BOUNDS = {
  too_small: {
    exclusive: ['greater_than', 'greater than', 'gt'],
    inclusive: ['greater_than_equal', 'greater than or equal to', 'ge'],
  },
  too_big: {
    exclusive: ['less_than', 'less than', 'lt'],
    inclusive: ['less_than_equal', 'less than or equal to', 'le'],
  },
} as const

function boundError(
  issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  loc: PydanticError['loc'],
  input: unknown,
): PydanticError {
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum)
  const [type, words, key] = BOUNDS[issue.code][issue.inclusive ? 'inclusive' : 'exclusive']
  // In pydantic's order: the bytes of a 422 are compared with FastAPI's (test/fidelity).
  return { type, loc, msg: `Input should be ${words} ${bound}`, input, ctx: { [key]: bound } }
}

function simpleMessage(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.map(String).join('.') || 'body'
  return valueAt(input, issue.path as PropertyKey[]) === undefined
    ? `${path}: field required`
    : `${path}: ${issue.message}`
}

/**
 * A value that fits no branch of a union (a Provider or null, say) is reported by the branch it
 * came closest to: the first whose issues lie inside the value, not on its type, so a client
 * reads "in.name: ..." rather than "Invalid input". Other issues pass as they are.
 */
export function closestIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue]
    const branch =
      issue.errors.find((b) => !b.every((i) => i.path.length === 0 && i.code === 'invalid_type')) ??
      issue.errors[0]!
    return closestIssues(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] })))
  })
}

/** The body-schema check (docs/CONTRACT.md#order-of-checks): checks the body against the route's schema; throws a 422 in the scenario's style. */
export function validateBody<S extends z.ZodType>(
  schema: S,
  body: RawBody,
  style: Style,
  laxIntFields: readonly string[] = [],
): z.output<S> {
  if (body.kind === 'empty' || (body.kind === 'json' && body.value === null)) {
    fail(style, 'body: field required', () => [
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ])
  }
  const msg = 'Input should be a valid dictionary or object to extract fields from'
  if (body.kind !== 'json') {
    // FastAPI validates the bytes it did not parse, and echoes them decoded as strict UTF-8.
    const input =
      body.kind === 'not-json' ? (decodeUtf8Strict(body.bytes) ?? new Unwritable('not UTF-8')) : {}
    fail(style, 'body: expected a JSON object (content-type application/json)', () => [
      { type: 'model_attributes_type', loc: ['body'], msg, input },
    ])
  }
  const { value, exact } = body as Extract<RawBody, { kind: 'json' }>
  if (typeof value !== 'object' || Array.isArray(value)) {
    fail(style, 'body: must be a JSON object', () => [
      { type: 'model_attributes_type', loc: ['body'], msg, input: exact?.() ?? value },
    ])
  }
  const lax = (v: Record<string, unknown>, of: (field: string) => unknown) => {
    const out = { ...v }
    for (const f of laxIntFields) if (Object.hasOwn(out, f)) out[f] = of(f)
    return out
  }
  const candidate =
    style === 'fastapi' && laxIntFields.length
      ? lax(value as Record<string, unknown>, (f) => laxInt((value as Record<string, unknown>)[f]))
      : value
  const parsed = schema.safeParse(candidate)
  if (parsed.success) return parsed.data
  if (style === 'simple')
    fail(style, simpleMessage(firstIssues(parsed.error.issues)[0]!, value), () => [])
  // The errors echo what was sent, so they are worked out again on Python's exact reading.
  const root = exact?.() ?? value
  const laxErrors = new Map<PropertyKey, IntError>()
  const again =
    root instanceof Map
      ? (toJs(root) as Record<string, unknown>)
      : (value as Record<string, unknown>)
  const reread =
    root instanceof Map
      ? lax(again, (f) => {
          const r = pydanticInt(root.get(f)!)
          // Any integer beyond a double's range fails the same bound as the number it rounds to.
          if ('int' in r)
            return Number.isFinite(Number(r.int))
              ? Number(r.int)
              : r.int > 0n
                ? Number.MAX_VALUE
                : -Number.MAX_VALUE
          laxErrors.set(f, r.error)
          return LAX_FAILED
        })
      : candidate
  const checked = schema.safeParse(reread)
  if (checked.success) return checked.data
  return fail(style, '', () =>
    firstIssues(checked.error.issues).map((i) => toPydantic(i, root, laxErrors)),
  )
}

/** One error per field, the first check that failed, as pydantic reports them. */
function firstIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const seen = new Set<string>()
  return closestIssues(issues).filter((i) => {
    const key = i.path.map(String).join('.')
    return seen.has(key) ? false : (seen.add(key), true)
  })
}
