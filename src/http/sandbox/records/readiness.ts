// The readiness report (docs/READINESS.md) as the control plane answers it: the published schema,
// and the mapper held to it.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import type { Report } from '../../../readiness/book.js'
import type { Flying } from '../../../readiness/in-flight.js'
import {
  BEHAVIOUR_IDS,
  BEHAVIOURS,
  FINDING_IDS,
  FINDINGS,
  NOT_SEEN,
  NOT_SEEN_IDS,
  SEVERITIES,
  type BehaviourId,
  type FindingId,
} from '../../../readiness/catalog.js'
import { ownHows } from '../../../readiness/own.js'
import { CHECK_ADVICE, CHECK_IDS, type CheckId, type Expected } from '../../../webhooks/check.js'
import { iso } from '../schemas.js'

export const ReadinessExample = z
  .object({
    method: z
      .string()
      .openapi({ description: 'The method of the call (POST for a webhook delivery).' }),
    path: z.string().openapi({
      description:
        "The path called (for a webhook, the receiver's URL without credentials or query).",
    }),
    company_id: z.string().nullable().openapi({
      description:
        "The company whose report holds it; null: a call that did not authenticate, or the admin's subscriptions (the admin's report only).",
    }),
    time: iso.openapi({
      description:
        "When it was seen, in virtual time (the sandbox's clock, which `clock/advance` moves).",
    }),
    wall_time: iso.openapi({
      description: 'When it was seen, in wall-clock time: what your test logs show.',
    }),
    seen: z.string().openapi({ description: 'What was seen, redacted as the journal redacts.' }),
  })
  .openapi('ReadinessExample')

export const ReadinessBehaviour = z
  .object({
    id: z
      .enum(BEHAVIOUR_IDS)
      .openapi({ description: "The behaviour's stable id (docs/READINESS.md)." }),
    met: z.boolean().openapi({ description: 'Whether the integration has met it.' }),
    count: z.int().openapi({ description: 'How many times it was met.' }),
    how: z.string().openapi({
      description:
        'How to meet it on a fresh sandbox: the magic value, credential or control call that produces it.',
    }),
  })
  .openapi('ReadinessBehaviour')

export const ReadinessFinding = z
  .object({
    id: z
      .enum(FINDING_IDS)
      .openapi({ description: "The finding's stable id (docs/READINESS.md)." }),
    severity: z.enum(SEVERITIES).openapi({
      description:
        'error: would fail against the real service or is unsafe; warning: would hurt; info: worth fixing.',
    }),
    count: z.int().openapi({ description: 'How many times it was seen.' }),
    example: ReadinessExample.openapi({ description: 'The first time it was seen.' }),
    advice: z.string().openapi({ description: 'What to change.' }),
  })
  .openapi('ReadinessFinding')

export const ReadinessReceiverCheck = z
  .object({
    url: z.string().openapi({ description: 'The receiver checked, without credentials or query.' }),
    time: iso.openapi({ description: 'When it was checked (virtual time).' }),
    wall_time: iso.openapi({ description: 'When it was checked (wall-clock time).' }),
    passed: z.boolean().openapi({ description: 'Whether every check passed.' }),
    failed: z
      .array(
        z.object({
          id: z
            .enum(CHECK_IDS)
            .openapi({ description: 'The check (docs/READINESS.md#the-receiver-check).' }),
          expected: z
            .enum(['2xx', '4xx'])
            .openapi({ description: 'The answer a safe receiver gives.' }),
          status: z
            .int()
            .nullable()
            .openapi({ description: 'The status answered; null when there was no answer.' }),
          error: z.string().nullable().openapi({
            description:
              'Why no fitting answer came (no connection, a timeout, a redirect...); null otherwise.',
          }),
          advice: z.string().nullable().openapi({ description: 'What to change.' }),
        }),
      )
      .openapi({ description: 'The checks that failed; empty when it passed.' }),
  })
  .openapi('ReadinessReceiverCheck')

/** The hows of loja-exemplo's own report, as its credentials call: the catalog's, never a copy. */
const HOWS = ownHows({
  companyId: 'loja-exemplo',
  userId: 'loja-exemplo-user',
  clientId: 'sandbox-client',
})
/** A behaviour as loja-exemplo's report shows it. */
const shown = (id: BehaviourId, count: number) => ({
  id,
  met: count > 0,
  count,
  how: HOWS[BEHAVIOURS.findIndex((b) => b.id === id)]!,
})
/** A finding of the story's receiver check, as the report shows it. */
const checked = (id: FindingId, seen: string) => ({
  id,
  severity: 'error',
  count: 1,
  example: {
    method: 'POST',
    path: 'http://127.0.0.1:3000/webhooks/pix',
    company_id: 'loja-exemplo',
    time: '2026-03-01T12:00:00.000000Z',
    wall_time: '2026-03-01T12:00:00.000000Z',
    seen: `the receiver check: the receiver answered 204 to a delivery ${seen}`,
  },
  advice: FINDINGS.find((f) => f.id === id)!.advice,
})
const failedCheck = (id: CheckId) => ({
  id,
  expected: '4xx',
  status: 204,
  error: null,
  advice: CHECK_ADVICE[id],
})

/**
 * loja-exemplo's own report at the examples' story's end (test/http/examples-story.test.ts):
 * four of the catalog's behaviours shown, and what the receiver check found of a receiver that
 * answers 204 to everything.
 */
const READINESS_EXAMPLE = {
  since: '2026-03-01T12:00:00.000000Z',
  coverage: {
    met: 5,
    total: BEHAVIOURS.length,
    percent: Math.floor((5 * 100) / BEHAVIOURS.length),
  },
  behaviours: [
    shown('charge.created', 5),
    shown('charge.unauthenticated', 0),
    shown('transfer.succeeded', 1),
    shown('webhook.charge.paid', 3),
  ],
  findings: [
    checked('receiver_accepts_bad_signature', 'signed with a wrong key'),
    checked('receiver_accepts_stale_timestamp', 'signed 10 minutes ago'),
  ],
  receiver_checks: [
    {
      url: 'http://127.0.0.1:3000/webhooks/pix',
      time: '2026-03-01T12:00:00.000000Z',
      wall_time: '2026-03-01T12:00:00.000000Z',
      passed: false,
      failed: [failedCheck('bad_signature'), failedCheck('stale_timestamp')],
    },
  ],
  not_seen: NOT_SEEN.map((n) => ({ ...n })),
  in_flight: { calls: 0, wait_ms: 0 },
}

export const Readiness = z
  .object({
    since: iso.openapi({
      description: "Since when (virtual time): the company's creation, or the last reset.",
    }),
    coverage: z
      .object({
        met: z.int().openapi({ description: 'Behaviours met.' }),
        total: z.int().openapi({ description: 'Behaviours in the catalog.' }),
        percent: z.int().openapi({ description: 'met / total, in percent, rounded down.' }),
      })
      .openapi('ReadinessCoverage', {
        description: 'How much of the catalog the integration has met.',
      }),
    behaviours: z
      .array(ReadinessBehaviour)
      .openapi({ description: 'Every behaviour of the catalog, in its order.' }),
    findings: z.array(ReadinessFinding).openapi({
      description:
        'What was seen that would hurt against the real service, most serious first; empty when nothing was.',
    }),
    receiver_checks: z.array(ReadinessReceiverCheck).openapi({
      description:
        'The newest receiver check of each receiver (`POST /_sandbox/webhooks/{id}/check`), oldest first; its failures that are findings are among `findings` too.',
    }),
    not_seen: z
      .array(
        z.object({
          id: z.enum(NOT_SEEN_IDS).openapi({ description: 'A stable id.' }),
          what: z.string().openapi({
            description:
              'What the sandbox cannot see, and so what no report (green or not) says anything about.',
          }),
        }),
      )
      .openapi({ description: 'What the sandbox cannot see: the same list in every report.' }),
    in_flight: z
      .object({
        calls: z.int().openapi({
          description:
            "Contract calls that arrived and are not answered yet (a fault's delay holds them, or they are still being processed): what they show is not in this report yet. With the admin token and no `company_id`, every call; otherwise the company's calls a fault's delay holds.",
        }),
        wait_ms: z.int().openapi({
          description:
            'Milliseconds until the longest delay holding one of them has passed (and a second more for its answer); 0 when no delay holds one.',
        }),
      })
      .openapi('ReadinessInFlight', {
        description:
          'Calls still being processed: `pix-sandbox exec` and `pix-sandbox readiness` wait for them (as long as `wait_ms`) before their verdict.',
      }),
  })
  .openapi('Readiness', { example: READINESS_EXAMPLE })
export type Readiness = z.output<typeof Readiness>

export function readinessRecord(r: Report & { inFlight: Flying }): Readiness {
  return {
    since: isoMicros(r.since),
    coverage: { met: r.met, total: r.total, percent: Math.floor((r.met * 100) / r.total) },
    behaviours: r.behaviours,
    findings: r.findings.map((f) => ({
      id: f.id,
      severity: f.severity,
      count: f.count,
      example: {
        method: f.example.method,
        path: f.example.path,
        company_id: f.example.companyId,
        time: isoMicros(f.example.at),
        wall_time: isoMicros(f.example.wallAt),
        seen: f.example.seen,
      },
      advice: f.advice,
    })),
    receiver_checks: r.checks.map((c) => ({
      url: c.url,
      time: isoMicros(c.at),
      wall_time: isoMicros(c.wallAt),
      passed: c.passed,
      failed: c.failed.map((f) => ({
        ...f,
        id: f.id as CheckId,
        expected: f.expected as Expected,
      })),
    })),
    not_seen: NOT_SEEN.map((n) => ({ ...n })),
    in_flight: { calls: r.inFlight.calls, wait_ms: r.inFlight.waitMs },
  }
}
