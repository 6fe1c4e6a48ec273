// Seeing what happened: who am I, the event log, the request journal.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import { CHARGE_RESPONSE_EXAMPLE } from '../contract/schemas.js'
import { ABOUT_WINDOW } from '../../store/events.js'
import { decodeCursor, pageOf } from '../../store/paging.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute, noContent } from './control-route.js'
import { EVENT_EXAMPLE, EventRecord, eventRecord } from './records/event.js'
import { iso, jsonAnswer, listQuery, page } from './schemas.js'
import { companyFilter } from './scope.js'

const JournalQuery = z
  .object({
    method: z.string().optional().openapi({ description: 'Only this method (GET, POST...).' }),
    path: z.string().optional().openapi({
      description: 'Only this path, e.g. /api/v1/hub/transactions/in.',
      example: '/api/v1/hub/transactions/in',
    }),
    status: z.coerce
      .number()
      .int()
      .min(100)
      .max(599)
      .optional()
      .openapi({ description: 'Only answers with this status.' }),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().optional(),
  })
  .strict()
const JournalEntry = z
  .object({
    id: z.int().openapi({ description: 'Its position in the journal: higher is newer.' }),
    at: iso.openapi({ description: 'When the request arrived (virtual time).' }),
    method: z.string().openapi({ description: "The request's method." }),
    path: z.string().openapi({ description: "The request's path, without the query." }),
    query: z.string().openapi({ description: 'The query string, without "?"; empty when none.' }),
    status: z.int().openapi({ description: 'The status answered.' }),
    dropped: z.boolean().openapi({
      description:
        'The connection was closed without an answer (a `drop` fault): the client got nothing, and `status` and the response body are what the call would have answered.',
    }),
    duration_ms: z.number().openapi({ description: 'Milliseconds from arrival to answer.' }),
    company_id: z.string().nullable().openapi({
      description:
        'The company whose credentials it carried; null for the admin and unknown callers.',
    }),
    request: z
      .object({
        headers: z
          .record(z.string(), z.string())
          .openapi({ description: 'Its headers, secrets redacted.' }),
        body: z.unknown().openapi({
          description:
            'Its body: JSON when it parsed, else the text; secrets redacted; null when empty.',
        }),
      })
      .openapi({ description: 'What was asked.' }),
    response: z
      .object({
        body: z.unknown().openapi({ description: 'The body answered, secrets redacted.' }),
      })
      .openapi({ description: 'What was answered.' }),
  })
  .openapi('JournalEntry')

/** The request that made CHARGE_EXAMPLE (the second one the seeded sandbox received), as the journal keeps it. */
const JOURNAL_ENTRY_EXAMPLE: z.output<typeof JournalEntry> = {
  id: 2,
  at: '2026-03-01T12:00:00.000000Z',
  method: 'POST',
  path: '/api/v1/hub/transactions/in',
  query: '',
  status: 200,
  dropped: false,
  duration_ms: 0,
  company_id: 'loja-exemplo',
  request: {
    headers: {
      host: 'localhost:8080',
      authorization: 'Basic [redacted]',
      'content-type': 'application/json',
      accept: '*/*',
      'user-agent': 'curl/8.5.0',
      'content-length': '43',
    },
    body: { amount: 1000, description: 'Pedido 1234' },
  },
  response: { body: CHARGE_RESPONSE_EXAMPLE },
}

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
        200: jsonAnswer(
          'Null ids for the admin token.',
          z
            .object({
              company_id: z
                .string()
                .nullable()
                .openapi({ description: "Your company's id; null for the admin token." }),
              user_id: z.string().nullable().openapi({
                description: "Your user's id (balances are per user); null for the admin token.",
              }),
              client_id: z.string().nullable().openapi({
                description: 'The client id you authenticated with; null for the admin token.',
              }),
              environment: z.literal('sandbox').openapi({ description: 'Always sandbox.' }),
            })
            .openapi('WhoAmI', {
              example: {
                company_id: 'loja-exemplo',
                user_id: 'loja-exemplo-user',
                client_id: 'sandbox-client',
                environment: 'sandbox',
              },
            }),
        ),
      },
    }),
    'scoped',
    (c) => {
      const scope = c.get('scope')
      const p = scope.admin ? undefined : scope.principal
      return c.json({
        company_id: p?.company.id ?? null,
        user_id: p?.userId ?? null,
        client_id: p?.clientId ?? null,
        environment: deps.environment,
      })
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/events',
      summary: 'The append-only log of state changes, oldest first (or newest first)',
      description: `Follow \`next_cursor\` to read on, in the same order; \`at\` is virtual time. With \`transaction_id\`, the events about one charge or transfer, among its company's latest ${ABOUT_WINDOW} events.`,
      request: {
        query: listQuery.extend({
          type: z
            .string()
            .optional()
            .openapi({ description: 'Only events of this type.', example: 'charge.paid' }),
          transaction_id: z.string().min(1).max(200).optional().openapi({
            description:
              "Only events about this charge or transfer (their `transaction_id`, or a balance change's `reference`).",
          }),
          order: z
            .enum(['oldest', 'newest'])
            .default('oldest')
            .openapi({ description: '`newest` reads the log from its end, newest first.' }),
        }),
      },
      responses: { 200: jsonAnswer('A page of events.', page(EventRecord, EVENT_EXAMPLE)) },
    }),
    'scoped',
    (c, { query: q }) => {
      // A cursor that is not one of ours starts from the log's start (or end, newest first).
      const seq = q.cursor === undefined ? undefined : (decodeCursor(q.cursor) ?? undefined)
      const newestFirst = q.order === 'newest'
      let companyId = companyFilter(c.get('scope'), q.company_id)
      // A record's events are searched within its company: the admin need not name it.
      if (q.transaction_id !== undefined)
        companyId ??= (
          store.charges.byId(q.transaction_id) ?? store.transfers.byId(q.transaction_id)
        )?.companyId
      const rows =
        q.transaction_id !== undefined && companyId === undefined
          ? []
          : store.events.list({
              companyId,
              type: q.type,
              about: q.transaction_id,
              newestFirst,
              ...(newestFirst ? { beforeSeq: seq } : { afterSeq: seq }),
              limit: q.limit + 1,
            })
      const page = pageOf(rows, q.limit, (e) => e.seq, eventRecord)
      return c.json({ data: page.data, next_cursor: page.nextCursor })
    },
  )

  const journalRoute = <S extends z.ZodType>(path: string, summary: string, schema: S) =>
    createRoute({
      method: 'get',
      path,
      summary,
      request: { query: JournalQuery },
      responses: { 200: jsonAnswer(summary, schema) },
    })

  controlRoute(
    app,
    deps,
    journalRoute(
      '/requests',
      'The request journal, newest first (secrets redacted)',
      page(JournalEntry, JOURNAL_ENTRY_EXAMPLE),
    ),
    'scoped',
    (c, { query }) => {
      const { cursor, limit, ...q } = query
      const before = cursor === undefined ? undefined : (decodeCursor(cursor) ?? 0)
      const rows = deps.journal.list(q, limit + 1, c.get('scope').companyId, before)
      const page = pageOf(
        rows,
        limit,
        (e) => e.id,
        (e) => ({
          id: e.id,
          at: isoMicros(e.at),
          method: e.method,
          path: e.path,
          query: e.query,
          status: e.status,
          dropped: e.dropped,
          duration_ms: e.durationMs,
          company_id: e.companyId,
          request: { headers: e.headers, body: parseBody(e.requestBody) },
          response: { body: parseBody(e.responseBody) },
        }),
      )
      return c.json({ data: page.data, next_cursor: page.nextCursor })
    },
  )

  const Count = z
    .object({
      count: z.int().openapi({ description: 'How many journaled requests match the filters.' }),
    })
    .openapi('JournalCount', { example: { count: 1 } })
  controlRoute(
    app,
    deps,
    journalRoute('/requests/count', 'How many journaled requests match', Count),
    'scoped',
    (c, { query }) => {
      const { limit: _l, cursor: _c, ...q } = query
      return c.json({ count: deps.journal.count(q, c.get('scope').companyId) })
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'delete',
      path: '/requests',
      summary: 'Clear the journal',
      responses: { 204: { description: 'Cleared.' } },
    }),
    'scoped',
    (c) => {
      deps.journal.clear(c.get('scope').companyId)
      return noContent(c)
    },
  )
}
