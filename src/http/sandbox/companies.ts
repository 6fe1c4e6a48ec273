// GET /companies: the companies you can see, a page at a time, with their users, balances,
// Providers, permissions and credential ids (what the dashboard's overview shows).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { DIRECTORY_PAGE } from '../../store/directory.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { COMPANY_LISTING_EXAMPLE, CompanyListing, companyListing } from './records/directory.js'
import { jsonAnswer } from './schemas.js'
import { companyFilter } from './scope.js'

// Keyset paging on (created_at, id): the cursor names the last company of the page before.
const cursorOf = (companyId: string) => Buffer.from(`c${companyId}`).toString('base64url')
const afterOf = (cursor: string | undefined): string | null => {
  const text = cursor === undefined ? '' : Buffer.from(cursor, 'base64url').toString()
  return text.startsWith('c') ? text.slice(1) : null
}

const CompanyPage = z
  .object({
    data: z.array(CompanyListing).openapi({ description: "This page's companies, oldest first." }),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last one.' }),
    total: z.int().openapi({
      description:
        'How many companies you can see in all: every one for the admin token, your own for company credentials.',
    }),
  })
  .openapi({ example: { data: [COMPANY_LISTING_EXAMPLE], next_cursor: null, total: 1 } })

export function mountCompanies(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const { store } = deps.sandbox
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/companies',
      summary: 'List companies, with their users, balances, Providers and credential ids',
      description:
        'Oldest first. Company credentials see their own company only. Secrets are stored hashed: none is listed.',
      request: {
        query: z
          .object({
            limit: z.coerce.number().int().min(1).max(100).default(DIRECTORY_PAGE),
            cursor: z.string().optional(),
          })
          .strict(),
      },
      responses: { 200: jsonAnswer('A page of companies.', CompanyPage) },
    }),
    'scoped',
    (c, { query: q }) => {
      const own = companyFilter(c.get('scope'), undefined)
      const { companies, next } = store.directory.companies(own ?? null, {
        after: afterOf(q.cursor),
        limit: q.limit,
      })
      const total = own === undefined ? store.identity.companyCount() : companies.length
      return c.json(
        {
          data: companies.map(companyListing),
          next_cursor: next === null ? null : cursorOf(next),
          total,
        },
        200,
      )
    },
  )
}
