// The order of checks of A3, as middleware: (1) the body parses as JSON, (2) authentication,
// (3) permission, (4) the body schema. Steps 5-7 (Provider, business rules) are the handler's.
// Faults injected through the control plane strike right after authentication, so they can
// target one company.
import type { MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import { assertMayCall } from '../../domain/access.js'
import { AppError } from '../../domain/errors.js'
import type { FaultOperation } from '../../store/faults.js'
import type { Operation } from '../../domain/types.js'
import { authenticateRequest } from '../auth.js'
import { readRawBody } from '../body.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { rejectInvalidJson, validateBody } from '../validation.js'

const FAULT_DETAIL: Record<number, string> = {
  500: 'Internal server error',
  501: 'Provider does not support this operation',
  503: 'Service temporarily unavailable',
}

/**
 * The checks as one middleware (each async layer costs every request a little): the body is
 * read and parsed, the caller authenticated, an injected fault applied, the permission and then
 * the schema checked, in that order.
 */
export function contractChecks(
  deps: HttpDeps,
  op: Operation | null,
  body?: { schema: z.ZodType; laxIntFields?: readonly string[] },
): MiddlewareHandler<AppEnv> {
  const { store } = deps.sandbox
  const faultOp: FaultOperation = op ?? 'company'
  return async (c, next) => {
    const style = store.setup.settings().validation_errors
    const raw = body ? await readRawBody(c) : undefined
    if (raw) rejectInvalidJson(raw, style)
    const principal = authenticateRequest(c, deps.authenticate)
    const fault = store.faults.take(faultOp, principal.company.id)
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs))
    if (fault?.status) throw new AppError('injected_fault', FAULT_DETAIL[fault.status], fault.status)
    if (op) assertMayCall(principal, op)
    if (body) c.set('body', validateBody(body.schema, raw!, style, body.laxIntFields))
    await next()
  }
}
