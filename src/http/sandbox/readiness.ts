// GET /_sandbox/readiness (docs/READINESS.md): the behaviours an integration has met and the
// findings seen, scoped like every control route: a company sees its own; the admin every
// company's together, or one company's with `company_id`. A company's own report names its own
// credentials in its hows (readiness/own.ts).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { notFound } from '../../domain/errors.js'
import type { Own } from '../../readiness/recorder.js'
import type { AppEnv, HttpDeps, Scope } from '../env.js'
import { controlRoute } from './control-route.js'
import { Readiness, readinessRecord } from './records/readiness.js'
import { companyFilter } from './scope.js'
import { jsonAnswer } from './schemas.js'

export function mountReadiness(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox

  /** The credential a company's own report names: the caller's own, or (for the admin) the company's first sandbox one. */
  function ownOf(scope: Scope, companyId: string): Own | undefined {
    if (!scope.admin)
      return { companyId, userId: scope.principal.userId, clientId: scope.principal.clientId }
    for (const user of ctx.store.directory.companies(companyId, { limit: 1 }).companies[0]?.users ??
      []) {
      const credential = user.credentials.find((c) => c.environment === 'sandbox' && !c.revoked)
      if (credential) return { companyId, userId: user.id, clientId: credential.clientId }
    }
    return undefined
  }

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/readiness',
      tags: ['Readiness'],
      summary: 'Is the integration ready? Behaviours met and findings',
      description:
        "Since the company was created or the sandbox reset. With the admin token: every company's (and calls that did not authenticate) together, or one company's with `company_id`; with company credentials, that company's. A company's own report names its own credentials in its `how`s; every report says what the sandbox cannot see (`not_seen`).",
      request: {
        query: z
          .object({
            company_id: z
              .string()
              .max(200)
              .optional()
              .openapi({ description: "Admin token only: one company's report." }),
          })
          .strict(),
      },
      responses: { 200: jsonAnswer('The report.', Readiness) },
    }),
    'scoped',
    (c, { query }) => {
      const scope = c.get('scope')
      const companyId = companyFilter(scope, query.company_id)
      if (companyId !== undefined && !ctx.store.identity.company(companyId))
        throw notFound('Company')
      return c.json(
        readinessRecord(
          ctx.readiness!.report(
            companyId,
            companyId === undefined ? undefined : ownOf(scope, companyId),
          ),
        ),
        200,
      )
    },
  )
}
