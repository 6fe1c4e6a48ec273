// Seeing what happened: who am I, the event log, the request journal.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import { decodeCursor, pageOf } from '../../store/paging.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { eventRecord } from './records.js'
import { EventRecord, listQuery, page } from './schemas.js'
import { companyFilter } from './scope.js'

const JournalQuery = z
  .object({
    method: z.string().optional(),
    path: z.string().optional(),
    status: z.coerce.number().int().min(100).max(599).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().optional(),
  })
  .strict()
const JournalEntry = z
  .object({
    id: z.int(),
    at: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.string(),
    status: z.int(),
    duration_ms: z.number(),
    company_id: z.string().nullable(),
    request: z.object({ headers: z.record(z.string(), z.string()), body: z.unknown() }),
    response: z.object({ body: z.unknown() }),
  })
  .openapi('JournalEntry')

const parseBody = (text: string | null): unknown => {
  if (text === null || text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function mountObserve(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const { store } = deps.sandbox

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/whoami',
      summary: 'The ids behind the credentials you hold',
      responses: {
        200: {
          description: 'Null ids for the admin token.',
          content: { 'application/json': { schema: z.object({ company_id: z.string().nullable(), user_id: z.string().nullable(), client_id: z.string().nullable(), environment: z.string() }) } },
        },
      },
    }),
    'scoped',
    (c) => {
      const scope = c.get('scope')
      const p = scope.admin ? undefined : scope.principal
      return c.json({ company_id: p?.company.id ?? null, user_id: p?.userId ?? null, client_id: p?.clientId ?? null, environment: deps.environment })
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/events',
      summary: 'The append-only log of state changes, oldest first',
      description: 'Follow `next_cursor` to read on; `at` is virtual time.',
      request: { query: listQuery.extend({ type: z.string().optional() }) },
      responses: { 200: { description: 'A page of events.', content: { 'application/json': { schema: page(EventRecord) } } } },
    }),
    'scoped',
    (c) => {
      const q = c.get('input').query
      const afterSeq = q.cursor === undefined ? undefined : (decodeCursor(q.cursor) ?? 0)
      const rows = store.events.list({ companyId: companyFilter(c.get('scope'), q.company_id), type: q.type, afterSeq, limit: q.limit + 1 })
      const page = pageOf(rows, q.limit, (e) => e.seq, eventRecord)
      return c.json({ data: page.data, next_cursor: page.nextCursor })
    },
  )

  const journalRoute = (path: string, summary: string, schema: z.ZodType) =>
    createRoute({ method: 'get', path, summary, request: { query: JournalQuery }, responses: { 200: { description: summary, content: { 'application/json': { schema } } } } })

  controlRoute(app, deps, journalRoute('/requests', 'The request journal, newest first (secrets redacted)', page(JournalEntry)), 'scoped', (c) => {
    const { cursor, limit, ...q } = c.get('input').query
    const before = cursor === undefined ? undefined : (decodeCursor(cursor) ?? 0)
    const rows = deps.journal.list(q, limit + 1, c.get('scope').companyId, before)
    const page = pageOf(rows, limit, (e) => e.id, (e) => ({
      id: e.id,
      at: isoMicros(e.at),
      method: e.method,
      path: e.path,
      query: e.query,
      status: e.status,
      duration_ms: e.durationMs,
      company_id: e.companyId,
      request: { headers: e.headers, body: parseBody(e.requestBody) },
      response: { body: parseBody(e.responseBody) },
    }))
    return c.json({ data: page.data, next_cursor: page.nextCursor })
  })

  controlRoute(app, deps, journalRoute('/requests/count', 'How many journaled requests match', z.object({ count: z.int() })), 'scoped', (c) => {
    const { limit: _l, cursor: _c, ...q } = c.get('input').query
    return c.json({ count: deps.journal.count(q, c.get('scope').companyId) })
  })

  controlRoute(
    app,
    deps,
    createRoute({ method: 'delete', path: '/requests', summary: 'Clear the journal', responses: { 204: { description: 'Cleared.' } } }),
    'scoped',
    (c) => {
      deps.journal.clear(c.get('scope').companyId)
      return c.body(null, 204)
    },
  )
}
