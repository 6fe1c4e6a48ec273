// GET /user/company (and its alias /oauth/user/company): the caller's company (docs/CONTRACT.md#where-the-contract-is-silent: timestamps).
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import type { Company } from '../../domain/types.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { JsonText } from '../json-text.js'
import { mount } from '../route.js'
import { contractEndpoint, type Edge } from './endpoint.js'
import { errorResponses } from './responses.js'
import { CompanyResponse } from './schemas.js'

const companyRoute = (path: string) =>
  createRoute({
    method: 'get',
    path,
    tags: ['Company'],
    summary: "The caller's company",
    description:
      "Answers even when the company's API access is not active, so the caller can see `api_active: false`.",
    security: [{ basicAuth: [] }],
    responses: {
      200: {
        description: 'The company.',
        content: { 'application/json': { schema: CompanyResponse } },
      },
      ...errorResponses([401]),
    },
  })

export const companyRoutes = [companyRoute('/user/company'), companyRoute('/oauth/user/company')]

// The body depends on the company record only, which authentication caches until it changes:
// formatting its timestamps once per record showed in profiles of this route, and so does
// writing the same JSON again for every call. The text is written once per record.
const bodies = new WeakMap<Company, JsonText>()
const bodyOf = (company: Company): JsonText => {
  let body = bodies.get(company)
  if (!body) {
    body = new JsonText(
      JSON.stringify({
        api_active: company.apiActive,
        created_at: isoMicros(company.createdAt),
        updated_at: isoMicros(company.updatedAt),
      }),
    )
    bodies.set(company, body)
  }
  return body
}

export function mountCompany(app: OpenAPIHono<AppEnv>, deps: HttpDeps, edge: Edge): void {
  const handler = contractEndpoint(deps, edge, {
    op: null,
    handle: (c, who) => c.json(bodyOf(who.company) as never, 200),
  })
  for (const route of companyRoutes) mount(app, route, handler)
}
