// Validates a control-plane request against its own route declaration (params, query, body),
// so what /_sandbox/openapi.json publishes is exactly what is enforced. Errors are 422
// `{detail: "<field>: <reason>"}`; an empty body counts as `{}` where the body is optional.
import type { RouteConfig } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { z } from 'zod'
import { AppError } from '../../domain/errors.js'
import { parseRawBody, readBodyText } from '../body.js'
import type { OwnerOf } from '../body-owner.js'
import type { AppEnv } from '../env.js'
import { after } from '../maybe-async.js'
import { wellFormed } from '../well-formed.js'
import { closestIssues, rejectInvalidJson, validateBody } from '../validation.js'

function check(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return {}
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = closestIssues(parsed.error.issues)[0]!
  const field = issue.path.length ? issue.path.join('.') : where
  throw new AppError(
    'invalid_input',
    `${field}: ${issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message}`,
  )
}

/**
 * Validates the request's params, query and body, and sets them as `input`; waits only for a body
 * still on its way (read within the budget of `ownerOf`'s answer: body-budget.ts).
 */
export function inputValidator(
  route: RouteConfig,
  ownerOf: OwnerOf,
): (c: Context<AppEnv>) => void | Promise<void> {
  const req = route.request
  const bodySchema = (
    req?.body?.content?.['application/json'] as { schema?: z.ZodType } | undefined
  )?.schema
  const bodyRequired = req?.body?.required === true
  const bodyOf = (c: Context<AppEnv>, schema: z.ZodType, text: string): unknown => {
    const raw = parseRawBody(c, text)
    if (raw.kind === 'json') raw.value = wellFormed(text, raw.value)
    rejectInvalidJson(raw, 'simple')
    return raw.kind === 'empty' && !bodyRequired
      ? check(schema, {}, 'body')
      : validateBody(schema, raw, 'simple')
  }
  return (c) => {
    const params = check(req?.params as z.ZodType | undefined, c.req.param(), 'path')
    const query = check(req?.query as z.ZodType | undefined, c.req.query(), 'query')
    if (!bodySchema) return c.set('input', { params, query, body: {} })
    return after(readBodyText(c, ownerOf), (text) =>
      c.set('input', { params, query, body: bodyOf(c, bodySchema, text) }),
    )
  }
}
