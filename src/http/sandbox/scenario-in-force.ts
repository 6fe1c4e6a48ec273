// GET /scenario: what the scenario in force does, as the state holds it: its name, the settings
// in force, the rules (in the order they apply) and the key directory's inactive keys. The
// dashboard's magic values are read from here.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { DEFAULT_SETTINGS, settingsInForceSchema } from '../../scenarios/settings.js'
import { chargeRuleSchema, transferRuleSchema } from '../../scenarios/schema.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { jsonAnswer, pixType } from './schemas.js'

/** Inactive keys listed at most. */
export const INACTIVE_KEYS_SHOWN = 100

/** The default scenario, as a sandbox started with it answers. */
const SCENARIO_EXAMPLE = {
  name: 'default',
  settings: DEFAULT_SETTINGS,
  rules: {
    charges: [{ when: { amount: 4242 }, then: { auto_pay_after_seconds: 5 } }],
    transfers: [
      {
        when: { pix_key: 'pending@pix.example' },
        then: { status: 'pending', settle_after_seconds: 60, final_status: 'success' },
      },
      {
        when: { amount: 666 },
        then: { status: 'failed', message: 'Transfer rejected by the receiving institution' },
      },
      {
        when: { amount: 777 },
        then: { status: 'pending', settle_after_seconds: 30, final_status: 'failed' },
      },
    ],
  },
  inactive_keys: [{ key: 'failed@pix.example', type: 'EMAIL' }],
}

const ScenarioInForce = z
  .object({
    name: z.string().nullable().openapi({
      description:
        "The scenario the state started from (the last reset's); null before any. Scenarios applied on top since add to what follows.",
    }),
    settings: settingsInForceSchema.openapi('Settings', {
      description: 'Every setting, as in force.',
    }),
    rules: z
      .object({
        charges: z
          .array(chargeRuleSchema.openapi('ChargeRule'))
          .openapi({ description: 'Charge rules: the first whose `when` matches applies.' }),
        transfers: z
          .array(transferRuleSchema.openapi('TransferRule'))
          .openapi({ description: 'Transfer rules: the first whose `when` matches applies.' }),
      })
      .openapi({ description: 'The rules, in the order they are tried.' }),
    inactive_keys: z
      .array(
        z
          .object({
            key: z.string().openapi({ description: 'The PIX key.' }),
            type: pixType.openapi({ description: 'Its type.' }),
          })
          .openapi('InactiveKey'),
      )
      .openapi({
        description: `Keys of the key directory that transfers fail on ("Pix key not found or inactive"), at most ${INACTIVE_KEYS_SHOWN}.`,
      }),
  })
  .openapi('ScenarioInForce', { example: SCENARIO_EXAMPLE })

export function mountScenarioInForce(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const { store } = deps.sandbox
  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/scenario',
      summary: 'The scenario in force: its settings, rules and inactive keys',
      responses: { 200: jsonAnswer('What the scenario in force does.', ScenarioInForce) },
    }),
    'scoped',
    (c) =>
      c.json(
        {
          name: store.setup.meta.get<string>('scenario') ?? null,
          settings: store.setup.settings(),
          rules: store.setup.rules(),
          inactive_keys: store.directory.inactiveKeys(INACTIVE_KEYS_SHOWN),
        },
        200,
      ),
  )
}
