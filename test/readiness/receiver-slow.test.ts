// receiver_slow is judged on the receiver's own time (docs/READINESS.md): a receiver that answers
// at once while the sandbox's own event loop is held up (a loaded machine, a busy test process)
// is not slow, neither by a delivery nor by the receiver check, and the delivery still records
// the wall time; one slower than the threshold with the sandbox free is slow, by either. The
// threshold is lowered (the sandbox's slowReceiverMs) so that this takes seconds, not tens, but
// not below a second: at a load average of 5-12 a quick answer's own time passed 200 ms, and a
// 500 ms limit ran out (2 failures in 5 runs). Waits on the wall clock: the slow tier.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isSlow } from '../../src/readiness/slow-receiver.js'
import { checkReceiver } from '../../src/webhooks/check.js'
import { newSecret } from '../../src/webhooks/sign.js'
import { request, startTestSandbox, type TestSandbox } from '../harness.js'
import { startHookReceiver, type HookReceiver } from './receivers.js'

const SLOW_MS = 1000
/** How long the sandbox is held up: 2.5 thresholds, so that counting it would find the receiver slow. */
const HELD_MS = 2.5 * SLOW_MS
/** How long a slow receiver takes: three thresholds, so that the timer's jitter cannot hide it. */
const SLOW_ANSWER_MS = 3 * SLOW_MS

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox({}, { slowReceiverMs: SLOW_MS })))
afterAll(() => sb.close())

/** A company of its own (its own report), subscribed to a correct receiver. */
async function subscribed(): Promise<{ rx: HookReceiver; call: Call; id: string }> {
  const t = (await sb.admin('POST', '/companies', { name: 'Lenta Ltda' })).body
  const call: Call = async (method, path) =>
    (await request(sb.url, method, `/_sandbox${path}`, { auth: `Basic ${t.token}` })).body
  const rx = await startHookReceiver('correct')
  const hook = (
    await request(sb.url, 'POST', '/_sandbox/webhooks', {
      auth: `Basic ${t.token}`,
      json: { url: rx.url },
    })
  ).body
  rx.secret = hook.secret
  return { rx, call, id: hook.id }
}
type Call = (method: string, path: string) => Promise<any>

const findings = async (call: Call) =>
  (await call('GET', '/readiness')).findings.map((f: any) => [f.id, f.example.seen])

/** The two ways the sandbox times a receiver: what each answers, its wall time, and the slow example. */
/** The time an example says it took: the wall time, and the sandbox's part in it on a loaded machine (slow-receiver.ts). */
const TAKEN = String.raw`\d+\.\d s( \(the sandbox was held up \d+\.\d s of it\))?`

const WAYS = [
  {
    name: 'a delivery',
    path: (id: string) => `/webhooks/${id}/test`,
    wallMs: (d: any) => d.attempts[0].latency_ms,
    slow: new RegExp(`^the receiver took ${TAKEN} to answer \\(webhook\\.test, `),
  },
  {
    name: 'the receiver check',
    path: (id: string) => `/webhooks/${id}/check`,
    wallMs: (r: any) => Math.max(...r.checks.map((c: any) => c.ms)),
    slow: new RegExp(`^the receiver check: valid: answered after ${TAKEN}$`),
  },
]

describe.each(WAYS)('receiver_slow, on the receiver’s own time: $name', (way) => {
  it('answered at once while the sandbox is held up: not slow, and the wall time is shown', async () => {
    const { rx, call, id } = await subscribed()
    try {
      rx.stallMs = HELD_MS
      const answer = await call('POST', way.path(id))
      expect(way.wallMs(answer)).toBeGreaterThanOrEqual(HELD_MS)
      expect(await findings(call)).toEqual([])
    } finally {
      await rx.close()
    }
  })

  it('answered after the threshold with the sandbox free: slow', async () => {
    const { rx, call, id } = await subscribed()
    try {
      rx.delayMs = SLOW_ANSWER_MS
      await call('POST', way.path(id))
      expect(await findings(call)).toEqual([['receiver_slow', expect.stringMatching(way.slow)]])
    } finally {
      await rx.close()
    }
  })
})

describe('the time limit, on the receiver’s own time', () => {
  /** The receiver check of a correct receiver with a `timeoutMs` limit, the sandbox held up `stallMs` once it has answered. */
  async function check(timeoutMs: number, stallMs: number) {
    const rx = await startHookReceiver('correct')
    rx.secret = newSecret()
    rx.stallMs = stallMs
    try {
      const r = await checkReceiver({
        url: rx.url,
        secret: rx.secret,
        userAgent: 'test',
        timeoutMs,
      })
      return r.checks.map((c) => c.error)
    } finally {
      await rx.close()
    }
  }

  it('does not run out while an answer waits for the sandbox, held up past the limit', async () => {
    expect(await check(2000, 2500)).toEqual(Array(5).fill(null))
  })

  it('runs out after twice the limit of wall time, however much of it the sandbox was held up', async () => {
    expect(await check(200, 800)).toContain('no answer within 0.2 s')
  })
})

describe('isSlow, for an attempt that timed out', () => {
  const timedOut = (ms: number, stalledMs: number) =>
    isSlow({ ms, stalledMs, timedOut: true }, 5000)

  it("is the receiver's when it had most of the threshold to itself", () => {
    // A delivery's 15 s, the check's 5 s (its timer a little early or late, some jitter counted).
    expect(timedOut(15_000, 0)).toBe(true)
    expect(timedOut(15_000, 9_000)).toBe(true)
    expect(timedOut(4_998, 0)).toBe(true)
    expect(timedOut(5_003, 60)).toBe(true)
  })

  it('is not when the sandbox was held up for long enough to have run the wait out', () => {
    expect(timedOut(5_000, 1_000)).toBe(false)
    expect(timedOut(15_000, 12_000)).toBe(false)
  })
})
