// The virtual clock: read it, advance it (running what becomes due), freeze, resume, reset.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi'
import { isoMicros, SECOND_US } from '../../domain/time.js'
import { advanceClock, changeClock } from '../../operations/clock.js'
import type { AppEnv, HttpDeps } from '../env.js'
import { controlRoute } from './control-route.js'
import { EventRecord, eventRecord } from './records/event.js'
import { iso, jsonAnswer, jsonBody } from './schemas.js'

const Clock = z
  .object({
    now: iso.openapi({ description: 'Virtual time now.' }),
    offset_seconds: z
      .number()
      .openapi({ description: 'Virtual minus real time, in seconds (what advances added).' }),
    frozen: z.boolean().openapi({ description: 'true: virtual time stands still until resumed.' }),
  })
  .openapi('Clock', {
    example: { now: '2026-03-01T12:00:00.000000Z', offset_seconds: 0, frozen: true },
  })
/**
 * How long an advance waits for the webhook sends it started. A receiver on this machine answers
 * in milliseconds; one that hangs (anyone's, another tenant's included) must not hold the answer
 * for the 15 s delivery limit: its attempt goes on and is recorded when it ends.
 */
export const ADVANCE_WEBHOOK_WAIT_MS = 2000

const clockReply = { 200: jsonAnswer('The clock.', Clock) }

export function mountClock(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
  const ctx = deps.sandbox
  const view = (): z.output<typeof Clock> => {
    const s = ctx.clock.state()
    return {
      now: isoMicros(ctx.clock.now()),
      offset_seconds: s.offsetUs / SECOND_US,
      frozen: s.frozenAtUs !== null,
    }
  }

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'get',
      path: '/clock',
      summary: 'Read the virtual clock',
      responses: clockReply,
    }),
    'admin',
    (c) => c.json(view()),
  )

  controlRoute(
    app,
    deps,
    createRoute({
      method: 'post',
      path: '/clock/advance',
      summary: 'Advance virtual time and run everything that became due',
      description: `Expiries, automatic payments, settlements and webhook retries run, in due order, before the answer. A webhook send that takes longer than ${ADVANCE_WEBHOOK_WAIT_MS / 1000} s (or is held back by \`delay_ms\` chaos, or waits for a free slot of its subscription) goes on after the answer.`,
      request: {
        body: jsonBody(
          z
            .object({
              seconds: z
                .number()
                .positive()
                .max(10 * 365 * 86400)
                .openapi({ description: 'How far to move virtual time, in seconds.' }),
            })
            .strict()
            .openapi({ example: { seconds: 3600 } }),
        ),
      },
      responses: {
        200: jsonAnswer(
          'The new time and the events produced.',
          z
            .object({
              now: iso.openapi({ description: 'Virtual time after the advance.' }),
              events: z
                .array(EventRecord)
                .openapi({ description: 'The events the due work produced, in order.' }),
            })
            .openapi('ClockAdvanced', {
              example: {
                now: '2026-03-01T13:00:00.000000Z',
                events: [
                  {
                    id: 'evt_4o4y4ZlKDD4TDiMnWSltHtSq',
                    type: 'charge.cancelled',
                    at: '2026-03-01T13:00:00.000000Z',
                    company_id: 'loja-exemplo',
                    data: {
                      transaction_id: '087HVGqaTg0yZCK9jVJoiT88asicNgYL',
                      amount: 1000,
                      reason: 'expired',
                    },
                  },
                ],
              },
            }),
        ),
      },
    }),
    'admin',
    async (c, { body }) => {
      await ctx.fakes.ready()
      const events = advanceClock(ctx, body.seconds)
      // Committed before the sends are awaited: the answer waits for the commit of what was
      // written while it was computed, and a refused one (a full disk) is a 503.
      await ctx.store.pendingCommit()
      await deps.webhooks.deliverDue({ maxWaitMs: ADVANCE_WEBHOOK_WAIT_MS })
      return c.json({ now: isoMicros(ctx.clock.now()), events: events.map(eventRecord) })
    },
  )

  for (const change of ['freeze', 'resume', 'reset'] as const) {
    controlRoute(
      app,
      deps,
      createRoute({
        method: 'post',
        path: `/clock/${change}`,
        summary: {
          freeze: 'Stop virtual time',
          resume: 'Let virtual time run again from where it stopped',
          reset: 'Back to real time (offset 0), running',
        }[change],
        // Resumed or reset, the clock runs: its example says so.
        responses:
          change === 'freeze'
            ? clockReply
            : {
                200: jsonAnswer('The clock.', Clock, {
                  running: {
                    summary:
                      change === 'resume'
                        ? 'Running again from where it stopped'
                        : 'Running, at real time',
                    value: { now: '2026-03-01T12:00:00.000000Z', offset_seconds: 0, frozen: false },
                  },
                }),
              },
      }),
      'admin',
      (c) => {
        changeClock(ctx, change)
        return c.json(view())
      },
    )
  }
}
