// Reset to a fresh start, list scenarios, apply one (by name or inline) on top of the state.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { isoMicros } from '../../domain/time.js'
import { applyScenario } from '../../operations/apply-scenario.js'
import { resetSandbox } from '../../operations/reset.js'
import { listScenarios, readScenario, scenarioExists, ScenarioError, validateScenario } from '../../scenarios/loader.js'
import type { Scenario } from '../../scenarios/schema.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'

const Applied = z.object({ scenario: z.string(), now: z.string() }).openapi('ScenarioApplied')

export function mountScenarios(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox

  /** Reads and validates before anything changes: a broken scenario is refused whole. */
  const load = (name: string): Scenario => {
    if (!scenarioExists(deps.scenariosDir, name)) throw new AppError('not_found', `Scenario "${name}" not found`)
    try {
      return readScenario(deps.scenariosDir, name)
    } catch (err) {
      if (err instanceof ScenarioError) throw new AppError('invalid_input', err.message)
      throw err
    }
  }
  const applied = (name: string) => ({ scenario: name, now: isoMicros(ctx.clock.now()) })

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/reset',
      summary: 'Wipe all state and load a scenario',
      description: 'State, clock, journal, outcomes, faults and webhooks return to a fresh start. Default: the scenario the server started with.',
      request: { body: { required: false, content: { 'application/json': { schema: z.object({ scenario: z.string().min(1).max(200).optional() }).strict() } } } },
      responses: { 200: { description: 'Reset.', content: { 'application/json': { schema: Applied } } } },
    }),
    'admin',
    (c) => {
      const name = c.get('input').body.scenario ?? deps.startScenario
      resetSandbox(ctx, load(name), name)
      deps.journal.clear()
      return c.json(applied(name))
    },
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/scenarios',
      summary: 'The scenarios of the scenarios folder',
      responses: { 200: { description: 'Names and descriptions.', content: { 'application/json': { schema: z.array(z.object({ name: z.string(), description: z.string() })) } } } },
    }),
    'admin',
    (c) => c.json(listScenarios(deps.scenariosDir)),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/scenarios',
      summary: 'Apply a scenario on top of the state',
      description:
        'By `name` (a file of the scenarios folder) or inline `document`. Settings merge key by key; companies and keys with an existing id are replaced, others added; rules are appended.',
      request: {
        body: {
          required: true,
          content: {
            'application/json': {
              schema: z
                .object({ name: z.string().min(1).max(200).optional(), document: z.record(z.string(), z.unknown()).optional() })
                .strict()
                .refine((b) => (b.name === undefined) !== (b.document === undefined), { error: 'give exactly one of name or document', path: ['name'] }),
            },
          },
        },
      },
      responses: { 200: { description: 'Applied.', content: { 'application/json': { schema: Applied } } } },
    }),
    'admin',
    (c) => {
      const { name, document } = c.get('input').body
      let scenario: Scenario
      try {
        scenario = document ? validateScenario(document, 'document') : load(name)
      } catch (err) {
        if (err instanceof ScenarioError) throw new AppError('invalid_input', err.message)
        throw err
      }
      const label = name ?? 'inline'
      applyScenario(ctx, scenario, label)
      return c.json(applied(label))
    },
  )
}
