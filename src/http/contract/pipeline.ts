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
import { basicAuth } from '../auth.js'
import { readRawBody } from '../body.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { rejectInvalidJson, validateBody } from '../validation.js'

const FAULT_DETAIL: Record<number, string> = {
  500: 'Internal server error',
  501: 'Provider does not support this operation',
  503: 'Service temporarily unavailable',
}

function injectedFault(deps: HttpDeps, operation: FaultOperation): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const fault = deps.sandbox.store.faults.take(operation, c.get('principal').company.id)
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs))
    if (fault?.status) throw new AppError('injected_fault', FAULT_DETAIL[fault.status], fault.status)
    await next()
  }
}

export function contractChecks(
  deps: HttpDeps,
  op: Operation | null,
  body?: { schema: z.ZodType; laxIntFields?: readonly string[] },
): MiddlewareHandler<AppEnv>[] {
  const style = () => deps.sandbox.store.setup.settings().validation_errors
  const steps: MiddlewareHandler<AppEnv>[] = []
  if (body) {
    steps.push(async (c, next) => {
      const raw = await readRawBody(c)
      rejectInvalidJson(raw, style())
      c.set('rawBody', raw)
      await next()
    })
  }
  steps.push(basicAuth(deps.authenticate))
  steps.push(injectedFault(deps, op ?? 'company'))
  if (op) {
    steps.push(async (c, next) => {
      assertMayCall(c.get('principal'), op)
      await next()
    })
  }
  if (body) {
    steps.push(async (c, next) => {
      c.set('body', validateBody(body.schema, c.get('rawBody'), style(), body.laxIntFields))
      await next()
    })
  }
  return steps
}
