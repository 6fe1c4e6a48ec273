// Validates a control-plane request against its own route declaration (params, query, body),
// so what /_sandbox/openapi.json publishes is exactly what is enforced. Errors are 422
// `{detail: "<field>: <reason>"}`; an empty body counts as `{}` where the body is optional.
import type { RouteConfig } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { AppError } from '../../domain/errors.js'
import { readRawBody } from '../body.js'
import type { AppEnv } from '../env.js'
import { rejectInvalidJson, validateBody } from '../validation.js'

function check(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return {}
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const field = issue.path.length ? issue.path.join('.') : where
  throw new AppError('invalid_input', `${field}: ${issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message}`)
}

export function validateInput(route: RouteConfig): MiddlewareHandler<AppEnv> {
  const req = route.request
  const bodySchema = (req?.body?.content?.['application/json'] as { schema?: z.ZodType } | undefined)?.schema
  const bodyRequired = req?.body?.required === true
  return async (c, next) => {
    const params = check(req?.params as z.ZodType | undefined, c.req.param(), 'path')
    const query = check(req?.query as z.ZodType | undefined, c.req.query(), 'query')
    let body: unknown = {}
    if (bodySchema) {
      const raw = await readRawBody(c)
      rejectInvalidJson(raw, 'simple')
      body = raw.kind === 'empty' && !bodyRequired ? check(bodySchema, {}, 'body') : validateBody(bodySchema, raw, 'simple')
    }
    c.set('input', { params, query, body })
    await next()
  }
}
