// Queued transfer outcomes and injected faults: add, list, clear (per company with company credentials).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import { injectFault, queueOutcome } from '../../operations/queues.js'
import { MAX_PIX_KEY_LENGTH } from '../../pix/keys.js'
import type { ListFilter, Page } from '../../store/paging.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { amount, listQuery, Outcome, page, pixType } from './schemas.js'
import { companyFilter } from './scope.js'

const OutcomeBody = Outcome.extend({
  times: z.int().min(1).max(100_000).default(1),
  match: z.object({ pix_key: z.string().max(MAX_PIX_KEY_LENGTH, `must be at most ${MAX_PIX_KEY_LENGTH} characters`).optional(), pix_type: pixType.optional(), amount: amount.optional() }).strict().default({}),
  company_id: z.string().max(200).optional(),
})
  .strict()
  .openapi('OutcomeRequest')

const FaultBody = z
  .object({
    operation: z.enum(['charge', 'transfer', 'company']),
    status: z.union([z.literal(500), z.literal(501), z.literal(503)]).optional(),
    delay_ms: z.int().min(0).max(60_000).default(0),
    times: z.int().min(1).max(100_000).optional().openapi({ description: 'How many calls it affects; omitted: until deleted.' }),
    company_id: z.string().max(200).optional(),
  })
  .strict()
  .refine((f) => f.status !== undefined || f.delay_ms > 0, { error: 'give a status, a delay_ms, or both', path: ['status'] })
  .openapi('FaultRequest')

const pageMap = <T, U>(p: Page<T>, map: (t: T) => U): Page<U> => ({ data: p.data.map(map), nextCursor: p.nextCursor })
const query = z.object({ company_id: z.string().optional() }).strict()
const list = page(z.record(z.string(), z.unknown()))

export function mountQueues(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const queues = {
    outcomes: {
      body: OutcomeBody,
      summary: 'Queue outcomes for the next matching transfers',
      add: (body: z.output<typeof OutcomeBody>, companyId: string | null) => {
        const { times, match, company_id: _, ...outcome } = body
        return queueOutcome(ctx, { companyId, outcome, match, times })
      },
      list: (f: ListFilter) =>
        pageMap(ctx.store.outcomes.list(f), (o) => ({ id: o.id, company_id: o.companyId, ...o.outcome, match: o.match, times: o.remaining, created_at: isoMicros(o.createdAt) })),
      clear: (companyId?: string) => ctx.store.outcomes.clear(companyId),
    },
    faults: {
      body: FaultBody,
      summary: 'Inject failures or latency into the contract\'s operations',
      add: (body: z.output<typeof FaultBody>, companyId: string | null) =>
        injectFault(ctx, { companyId, operation: body.operation, status: body.status ?? null, delayMs: body.delay_ms, times: body.times ?? null }),
      list: (lf: ListFilter) =>
        pageMap(ctx.store.faults.list(lf), (f) => ({ id: f.id, company_id: f.companyId, operation: f.operation, status: f.status, delay_ms: f.delayMs, times: f.remaining, created_at: isoMicros(f.createdAt) })),
      clear: (companyId?: string) => ctx.store.faults.clear(companyId),
    },
  }

  for (const [name, q] of Object.entries(queues)) {
    controlRoute(
      app,
      deps,
      createRoute({
        method: 'post',
        path: `/${name}`,
        summary: q.summary,
        description: 'With the admin token it applies to every company unless `company_id` names one; with company credentials, to that company.',
        request: { body: { required: true, content: { 'application/json': { schema: q.body } } } },
        responses: { 201: { description: 'Queued.', content: { 'application/json': { schema: z.object({ id: z.int() }) } } } },
      }),
      'scoped',
      (c) => {
        const body = c.get('input').body
        const scope = c.get('scope')
        const companyId = scope.admin ? (body.company_id ?? null) : companyFilter(scope, body.company_id)!
        return c.json({ id: q.add(body, companyId) }, 201)
      },
    )
    controlRoute(
      app,
      deps,
      createRoute({ method: 'get', path: `/${name}`, summary: `List ${name}, oldest first`, request: { query: listQuery }, responses: { 200: { description: 'A page of them.', content: { 'application/json': { schema: list } } } } }),
      'scoped',
      (c) => {
        const lq = c.get('input').query
        const result = q.list({ limit: lq.limit, cursor: lq.cursor, companyId: companyFilter(c.get('scope'), lq.company_id) })
        return c.json({ data: result.data, next_cursor: result.nextCursor })
      },
    )
    controlRoute(
      app,
      deps,
      createRoute({ method: 'delete', path: `/${name}`, summary: `Clear ${name}`, request: { query }, responses: { 204: { description: 'Cleared.' } } }),
      'scoped',
      (c) => {
        q.clear(companyFilter(c.get('scope'), c.get('input').query.company_id))
        return c.body(null, 204)
      },
    )
  }
}
