// Reset to a fresh start, list scenarios, apply one (by name or inline) on top of the state.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { AppError } from '../../domain/errors.js'
import { isoMicros } from '../../domain/time.js'
import { applyScenario } from '../../operations/apply-scenario.js'
import { resetSandbox } from '../../operations/reset.js'
import {
  listScenarios,
  readScenario,
  scenarioExists,
  ScenarioError,
  validateScenario,
} from '../../scenarios/loader.js'
import type { Scenario } from '../../scenarios/schema.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { iso, jsonAnswer, jsonBody } from './schemas.js'

const Applied = z
  .object({
    scenario: z
      .string()
      .openapi({ description: 'The scenario applied: its name, or "inline" for a document.' }),
    now: iso.openapi({ description: 'Virtual time after it was applied.' }),
  })
  .openapi('ScenarioApplied', {
    example: { scenario: 'default', now: '2026-03-01T12:00:00.000000Z' },
  })
/** POST /scenarios with its example, many-users, applied on top. */
const APPLIED_EXAMPLE = {
  applied: {
    summary: 'many-users applied on top',
    value: { scenario: 'many-users', now: '2026-03-01T12:00:00.000000Z' },
  },
}
const ScenarioSummary = z
  .object({
    name: z.string().openapi({ description: "Its name: the file's, without extension." }),
    description: z.string().openapi({ description: 'What it sets up (its `description`).' }),
  })
  .openapi('ScenarioSummary')

/** The scenarios folder of a clone. */
const SCENARIOS_EXAMPLE: z.output<typeof ScenarioSummary>[] = [
  {
    name: 'default',
    description:
      'Loja Exemplo Ltda with fixed credentials that demonstrate every error rule of the contract, and magic values for transfer and charge outcomes.',
  },
  {
    name: 'many-users',
    description:
      'A marketplace with five sellers (seller-1 to seller-5, secret seller-N-secret): different balances, a seller allowed only charges, one without a transfer Provider, one with revoked keys; plus a second company (other-client:other-secret) to test isolation.',
  },
  {
    name: 'short-lived-charges',
    description:
      'Charges that live 60 s. A description containing [pay] is paid 3 s after creation, one containing [cancel] is cancelled after 10 s, the others expire. Times are shown in UTC. Credentials short-lived:short-lived-secret.',
  },
  {
    name: 'unreliable-transfers',
    description:
      'Transfers that hang, fail late or fail at once: large amounts stay pending and fail 2 minutes later, PHONE keys are refused by the receiving institution, CPF keys settle after 10 s, and only keys of the directory are accepted. Credentials unreliable-client:unreliable-secret.',
  },
]

export function mountScenarios(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox

  /** Reads and validates before anything changes: a broken scenario is refused whole. */
  const load = (name: string): Scenario => {
    if (!scenarioExists(deps.scenariosDir, name))
      throw new AppError('not_found', `Scenario "${name}" not found`)
    try {
      return readScenario(deps.scenariosDir, name)
    } catch (err) {
      if (err instanceof ScenarioError) throw new AppError('invalid_input', err.message)
      throw err
    }
  }
  const applied = (name: string): z.output<typeof Applied> => ({
    scenario: name,
    now: isoMicros(ctx.clock.now()),
  })

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/reset',
      summary: 'Wipe all state and load a scenario',
      description:
        'State, clock, journal, outcomes, faults and webhooks return to a fresh start. Default: the scenario the server started with.',
      request: {
        body: jsonBody(
          z
            .object({
              scenario: z.string().min(1).max(200).optional().openapi({
                description: 'The scenario to load (default: the one the server started with).',
              }),
            })
            .strict()
            .openapi({ example: { scenario: 'default' } }),
          false,
        ),
      },
      responses: { 200: jsonAnswer('Reset.', Applied) },
    }),
    'admin',
    async (c, { body }) => {
      const name = body.scenario ?? deps.startScenario
      resetSandbox(ctx, load(name), name)
      // The journal is forgotten once the reset is written (a full disk refuses it: a 503).
      await ctx.store.pendingCommit()
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
      responses: {
        200: jsonAnswer(
          'Names and descriptions.',
          z.array(ScenarioSummary).openapi({ example: SCENARIOS_EXAMPLE }),
        ),
      },
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
        body: jsonBody(
          z
            .object({
              name: z
                .string()
                .min(1)
                .max(200)
                .optional()
                .openapi({ description: 'A scenario of the scenarios folder.' }),
              document: z
                .record(z.string(), z.unknown())
                .optional()
                .openapi({ description: 'A scenario document inline (the same shape as a file).' }),
            })
            .strict()
            .refine((b) => (b.name === undefined) !== (b.document === undefined), {
              error: 'give exactly one of name or document',
              path: ['name'],
            })
            .openapi({ example: { name: 'many-users' } }),
        ),
      },
      responses: { 200: jsonAnswer('Applied.', Applied, APPLIED_EXAMPLE) },
    }),
    'admin',
    (c, { body }) => {
      const { name, document } = body
      let scenario: Scenario
      try {
        // The body's refinement gives exactly one of the two.
        scenario = document ? validateScenario(document, 'document') : load(name!)
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
