// GET /_sandbox/readiness (Part F): the behaviours an integration has met and the findings seen,
// scoped like every control route: a company sees its own; the admin every company's together,
// or one company's with `company_id`.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { notFound } from '../../domain/errors.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { Readiness, readinessRecord } from './records/readiness.js'
import { companyFilter } from './scope.js'
import { jsonAnswer } from './schemas.js'

export function mountReadiness(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/readiness',
      tags: ['Readiness'],
      summary: 'Is the integration ready? Behaviours met and findings',
      description:
        'Since the company was created or the sandbox reset. With the admin token: every company\'s (and calls that named no known company) together, or one company\'s with `company_id`; with company credentials, that company\'s.',
      request: { query: z.object({ company_id: z.string().max(200).optional().openapi({ description: 'Admin token only: one company\'s report.' }) }).strict() },
      responses: { 200: jsonAnswer('The report.', Readiness) },
    }),
    'scoped',
    (c, { query }) => {
      const companyId = companyFilter(c.get('scope'), query.company_id)
      if (companyId !== undefined && !ctx.store.identity.company(companyId)) throw notFound('Company')
      return c.json(readinessRecord(ctx.readiness!.report(companyId)), 200)
    },
  )
}
