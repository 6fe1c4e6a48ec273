// Queued transfer outcomes and injected faults: add, list, clear (per company with company credentials).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { injectFault, MAX_QUEUED, queueOutcome } from '../../operations/queues.js'
import type { ListFilter, Page } from '../../store/paging.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute, noContent, type Output } from './control-route.js'
import {
  FAULT_EXAMPLE,
  FaultRecord,
  faultRecord,
  OUTCOME_EXAMPLE,
  OutcomeMatch,
  OutcomeRecord,
  outcomeRecord,
} from './records/queue.js'
import { jsonAnswer, listQuery, Outcome, page } from './schemas.js'
import { companyFilter } from './scope.js'

const forCompany = z
  .string()
  .max(200)
  .optional()
  .openapi({ description: 'Admin token only: the company it applies to (default: every company).' })
const OutcomeBody = Outcome.extend({
  times: z
    .int()
    .min(1)
    .max(100_000)
    .default(1)
    .openapi({ description: 'How many matching transfers it decides.' }),
  match: OutcomeMatch.default({}).openapi({
    description: 'Which transfers take it (default: any).',
  }),
  company_id: forCompany,
})
  .strict()
  .openapi('OutcomeRequest', {
    example: { status: 'pending', settle_after_seconds: 30, final_status: 'failed' },
  })

const FaultBody = z
  .object({
    operation: z
      .enum(['charge', 'transfer', 'company'])
      .openapi({ description: 'The contract operation it strikes.' }),
    status: z
      .union([z.literal(500), z.literal(501), z.literal(503)])
      .optional()
      .openapi({ description: 'The status to answer instead (its contract `detail`).' }),
    delay_ms: z.int().min(0).max(60_000).default(0).openapi({
      description:
        'Milliseconds to hold each call first (with `when: "after"`: after the write, before the answer).',
    }),
    times: z
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .openapi({ description: 'How many calls it affects; omitted: until deleted.' }),
    retry_after: z.int().min(1).max(3600).optional().openapi({
      description:
        'With status 503: the seconds its answer asks the client to wait (a `Retry-After` header); omitted: no header.',
    }),
    when: z.enum(['before', 'after']).default('before').openapi({
      description:
        '`before` (default): the call fails and nothing is done. `after`: the operation takes effect first (the charge or transfer exists, the balance moved, committed), then the call answers `status`: the lost answer of a real payment API. A call the contract refuses (403, 422) is answered its refusal.',
    }),
    drop: z.literal(true).optional().openapi({
      description:
        'Close the connection without any answer, after the operation took effect (implies `when: "after"`; give no `status`).',
    }),
    company_id: forCompany,
  })
  .strict()
  .refine((f) => f.status !== undefined || f.delay_ms > 0 || f.drop, {
    error: 'give a status, a delay_ms, or drop',
    path: [],
  })
  .refine((f) => f.retry_after === undefined || f.status === 503, {
    error: 'only a 503 carries Retry-After: give status 503',
    path: ['retry_after'],
  })
  .refine((f) => !f.drop || f.status === undefined, {
    error: 'a dropped connection answers nothing: give drop or a status, not both',
    path: ['drop'],
  })
  .openapi('FaultRequest', {
    example: { operation: 'transfer', status: 500, when: 'after', times: 1 },
  })

const query = z
  .object({
    company_id: z
      .string()
      .optional()
      .openapi({ description: "Admin token only: clear that company's only." }),
  })
  .strict()
const Queued = z
  .object({ id: z.int().openapi({ description: "The new entry's id." }) })
  .openapi('Queued', { example: { id: 1 } })

interface Queue<B extends z.ZodType, R extends z.ZodType> {
  name: 'outcomes' | 'faults'
  summary: string
  body: B
  record: R
  example: unknown
  add(body: Output<B>, companyId: string | null): number
  list(f: ListFilter): Page<z.output<R>>
  clear(companyId?: string): void
}

const mapPage = <T, U>(p: Page<T>, map: (t: T) => U): Page<U> => ({
  data: p.data.map(map),
  nextCursor: p.nextCursor,
})

export function mountQueues(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  mountQueue(app, deps, {
    name: 'outcomes',
    summary: 'Queue outcomes for the next matching transfers',
    body: OutcomeBody,
    record: OutcomeRecord,
    example: OUTCOME_EXAMPLE,
    add: ({ times, match, company_id: _, ...outcome }, companyId) =>
      queueOutcome(ctx, { companyId, outcome, match, times }),
    list: (f) => mapPage(ctx.store.outcomes.list(f), outcomeRecord),
    clear: (companyId) => void ctx.store.outcomes.clear(companyId),
  })
  mountQueue(app, deps, {
    name: 'faults',
    summary: "Inject failures or latency into the contract's operations",
    body: FaultBody,
    record: FaultRecord,
    example: FAULT_EXAMPLE,
    add: (body, companyId) =>
      injectFault(ctx, {
        companyId,
        operation: body.operation,
        status: body.status ?? null,
        delayMs: body.delay_ms,
        times: body.times ?? null,
        retryAfter: body.retry_after ?? null,
        // A drop happens after the write: a connection closed before it is a refusal, not a lost answer.
        after: body.when === 'after' || body.drop === true,
        drop: body.drop === true,
      }),
    list: (f) => mapPage(ctx.store.faults.list(f), faultRecord),
    clear: (companyId) => void ctx.store.faults.clear(companyId),
  })
}

function mountQueue<B extends typeof OutcomeBody | typeof FaultBody, R extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  deps: HttpDeps,
  q: Queue<B, R>,
): void {
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: `/${q.name}`,
      summary: q.summary,
      description: `With the admin token it applies to every company unless \`company_id\` names one; with company credentials, to that company. At most ${MAX_QUEUED} per company (the admin's global ones have their own ${MAX_QUEUED}).`,
      // Written out, not jsonBody(q.body): through the helper the compiler loses the generic body's type.
      request: { body: { required: true, content: { 'application/json': { schema: q.body } } } },
      responses: { 201: jsonAnswer('Queued.', Queued) },
    }),
    'scoped',
    (c, { body }) => {
      const scope = c.get('scope')
      const companyId = scope.admin
        ? (body.company_id ?? null)
        : companyFilter(scope, body.company_id)!
      return c.json({ id: q.add(body, companyId) }, 201)
    },
  )
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: `/${q.name}`,
      summary: `List ${q.name}, oldest first`,
      request: { query: listQuery },
      responses: { 200: jsonAnswer('A page of them.', page(q.record, q.example)) },
    }),
    'scoped',
    (c, { query }) => {
      const result = q.list({
        limit: query.limit,
        cursor: query.cursor,
        companyId: companyFilter(c.get('scope'), query.company_id),
      })
      return c.json({ data: result.data, next_cursor: result.nextCursor }, 200)
    },
  )
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'delete',
      path: `/${q.name}`,
      summary: `Clear ${q.name}`,
      request: { query },
      responses: { 204: { description: 'Cleared.' } },
    }),
    'scoped',
    (c, input) => {
      q.clear(companyFilter(c.get('scope'), input.query.company_id))
      return noContent(c)
    },
  )
}
