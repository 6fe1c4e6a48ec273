// The readiness catalog's regression suite, in Node: a merchant integration written from the
// docs (integrations/merchant.ts) and its own tests (integrations/suite.ts). The correct shop
// passes its tests and raises no finding, whatever their order (forward, reverse, shuffled, and
// each fault test right before a test that sends the same payout); each one-bug variant is caught
// with the right finding and severity. The Python shop does the same under the pytest plugin
// (clients/python/tests/test_integration_shop.py).
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Readiness, type Sandbox } from '../../src/index.js'
import { eventually } from '../hang.js'
import type { Bugs } from './integrations/merchant.js'
import {
  openShop,
  runSuite,
  scenario,
  SCENARIOS,
  type Scenario,
  type Shop,
} from './integrations/suite.js'

let sb: Sandbox | undefined
let shop: Shop | undefined
afterEach(async () => {
  await shop?.receiver.close()
  await sb?.close()
  shop = sb = undefined
})

/** A seeded shuffle (mulberry32), so that a failing order can be run again. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list]
  let s = seed
  const random = () => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const SAME_PAYOUT = 'pays the same supplier the same amount for a new order'
/** Each test that faults a payout right before one that sends the same payout (JUnit's MethodName order put them so). */
const faultFirst = (): Scenario[] => {
  const pairs = [
    'a payout whose answer is lost is reconciled, not sent again',
    SAME_PAYOUT,
    'a payout that times out is reconciled, not sent again',
    'pays a supplier out',
    'a Provider that cannot pay out is said, not retried',
  ]
  return [...pairs.map(scenario), ...SCENARIOS.filter((s) => !pairs.includes(s.name))]
}

/**
 * Every company's report once the calls a fault's delay holds have been answered (a payout its
 * client gave up on goes through then) and the webhook attempts under way have been recorded (no
 * delivery is due: test/webhooks/settle.ts's rule), however long a loaded machine takes.
 */
const settledReport = (sandbox: Sandbox): Promise<Readiness> =>
  eventually(async () => {
    const now = (await sandbox.control.api.GET('/clock')).data!.now
    const { data } = await sandbox.control.api.GET('/webhooks/deliveries', {
      params: { query: { limit: 500 } },
    })
    if (data!.data.some((d) => d.status === 'pending' && (d.next_attempt_at ?? '') <= now))
      return undefined
    const report = await sandbox.readiness()
    return report.in_flight.calls === 0 && report
  }, 'calls still in flight, or deliveries still due')

const ORDERS: [string, () => Scenario[]][] = [
  ['forward', () => [...SCENARIOS]],
  ['reverse', () => [...SCENARIOS].reverse()],
  ['shuffled (seed 7)', () => shuffled(SCENARIOS, 7)],
  ['each fault test right before the same payout', faultFirst],
]

describe('a merchant integration in Node, correct', () => {
  it.each(ORDERS)('passes its tests and raises no finding, in order: %s', async (_name, order) => {
    sb = await startSandbox()
    shop = await openShop(sb)
    expect(await runSuite(shop, order())).toEqual([])
    const report = await settledReport(sb)
    expect(report.findings).toEqual([])
    expect(report.behaviours.filter((b) => b.met).map((b) => b.id)).toEqual(
      expect.arrayContaining([
        'transfer.answer_lost',
        'transfer.pending_settled',
        'webhook.duplicate',
        'webhook.bad_signature_rejected',
        'charge.unavailable',
      ]),
    )
  })
})

const BUGS: {
  bug: keyof Bugs
  what: string
  run: string[]
  finding: string
  severity: string
  /** Chaos for the shop's subscription while the bug runs. */
  chaos?: { delay_ms: number }
}[] = [
  {
    bug: 'resendAfterTimeout',
    what: 'a payout re-sent 1 s after its own timeout, while the first is still processed',
    run: ['a payout that times out is reconciled, not sent again'],
    finding: 'paid_twice',
    severity: 'error',
  },
  {
    bug: 'retryWithNewDescription',
    what: 'a payout retried after a 500 with a new description, before its webhook could tell',
    run: ['a payout whose answer is lost is reconciled, not sent again'],
    finding: 'paid_twice',
    severity: 'error',
    // The webhook is late: the retry cannot have been made knowing the first went through.
    chaos: { delay_ms: 1000 },
  },
  {
    bug: 'resendOnceReconciled',
    what: 'a payout reconciled as paid from its webhook, then sent again with a new description',
    run: ['a payout whose answer is lost is reconciled, not sent again'],
    finding: 'paid_twice_unconfirmed',
    severity: 'warning',
  },
  {
    bug: 'retryPermanent',
    what: 'a 501 retried as if temporary',
    run: ['a Provider that cannot pay out is said, not retried'],
    finding: 'retried_permanent_error',
    severity: 'error',
  },
  {
    bug: 'ignoreRetryAfter',
    what: 'a 503 retried at once, whatever Retry-After says',
    run: ['a charge waits out a 503 as long as it asks'],
    finding: 'ignored_retry_after',
    severity: 'warning',
  },
  {
    bug: 'literalKey',
    what: 'a receiver keying its HMAC with the whsec_ text',
    run: ['a paid charge is credited once'],
    finding: 'receiver_rejects_valid_signature',
    severity: 'error',
  },
  {
    bug: 'noVerification',
    what: 'a receiver that checks no signature',
    run: ['the receiver passes the receiver check'],
    finding: 'receiver_accepts_bad_signature',
    severity: 'error',
  },
  {
    bug: 'noVerification',
    what: 'a receiver that checks no timestamp',
    run: ['the receiver passes the receiver check'],
    finding: 'receiver_accepts_stale_timestamp',
    severity: 'error',
  },
  {
    bug: 'rejectDuplicates',
    what: 'a receiver refusing a webhook-id it processed',
    run: ['the receiver passes the receiver check'],
    finding: 'receiver_rejects_duplicate',
    severity: 'warning',
  },
  {
    bug: 'trailingSlash',
    what: 'paths with a trailing slash',
    run: ['pays a supplier out'],
    finding: 'trailing_slash',
    severity: 'info',
  },
]

describe('a merchant integration in Node, with one bug', () => {
  it.each(BUGS)('$what: $finding ($severity)', async ({ bug, run, finding, severity, chaos }) => {
    sb = await startSandbox()
    shop = await openShop(sb, { [bug]: true })
    if (chaos)
      await shop.tenant.control.api.PUT('/webhooks/{webhook_id}/chaos', {
        params: { path: { webhook_id: shop.hookId } },
        body: chaos,
      })
    await runSuite(shop, run.map(scenario))
    const report = await settledReport(sb)
    const found = report.findings.find((f) => f.id === finding)
    expect(found, JSON.stringify(report.findings)).toMatchObject({
      severity,
      example: { company_id: shop.tenant.companyId },
    })
    // Its own report holds it too, and says when on the wall clock.
    const own = await shop.tenant.control.readiness()
    expect(own.findings.find((f) => f.id === finding)?.example.wall_time).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    )
  })
})
