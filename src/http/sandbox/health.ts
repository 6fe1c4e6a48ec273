// GET /_sandbox/health (no auth): liveness for Docker's HEALTHCHECK and for test suites.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros } from '../../domain/time.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { mount } from '../route.js'
import { VERSION } from '../../version.js'
import { jsonAnswer } from './schemas.js'

const Health = z
  .object({
    status: z.enum(['ok', 'degraded']).openapi({
      description:
        '`degraded` while the store cannot write (a full disk): writes answer 503 with Retry-After; reads go on.',
    }),
    reason: z.string().optional().openapi({ description: 'Why it is degraded, and since when.' }),
    version: z.string().openapi({ description: "The sandbox's version." }),
    environment: z
      .literal('sandbox')
      .openapi({ description: 'Always sandbox: production keys are refused.' }),
    scenario: z.string().nullable().openapi({
      description: "The scenario the state started from (the last reset's); null before any.",
    }),
    now: z.string().openapi({ description: 'Virtual time, ISO 8601 UTC.' }),
  })
  .openapi('Health', {
    example: {
      status: 'ok',
      version: VERSION,
      environment: 'sandbox',
      scenario: 'default',
      now: '2026-03-01T12:00:00.000000Z',
    },
  })

export const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Sandbox'],
  summary: 'Health and virtual time',
  responses: {
    200: jsonAnswer('The sandbox is up (and, when `degraded`, cannot write for now).', Health),
  },
})

export function mountHealth(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const { store } = deps.sandbox
  mount(app, healthRoute, (c) => {
    // Still 200 when degraded: the process lives and reads work, and restarting frees no disk.
    const failure = store.writeFailure()
    return c.json({
      status: failure ? ('degraded' as const) : ('ok' as const),
      ...(failure && {
        reason: `the store cannot write since ${failure.since}: ${failure.reason}`,
      }),
      version: deps.version,
      environment: deps.environment,
      scenario: deps.sandbox.store.setup.meta.get<string>('scenario') ?? null,
      now: isoMicros(deps.sandbox.clock.now()),
    })
  })
}
