// The calls in flight that `exec` and `pix-sandbox readiness` wait for before a verdict: every
// call until it is answered, as long as the longest delay holding one (and a second for its
// answer), then what is left is said; a company's report counts its calls a delay holds.
import { describe, expect, it } from 'vitest'
import { ANSWER_MARGIN_MS, inFlight } from '../../src/readiness/in-flight.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const since = (start: number) => performance.now() - start

describe('calls in flight', () => {
  it('with none, settles at once', async () => {
    const f = inFlight(() => performance.now())
    expect(await f.settled()).toEqual({ calls: 0, waitMs: 0 })
  })

  it('waits for a call a delay holds until it is answered, and counts it for its company only', async () => {
    const f = inFlight(() => performance.now())
    f.arrived()
    f.held('co_a', 1500)
    expect(f.now()).toMatchObject({ calls: 1 })
    expect(f.now().waitMs).toBeGreaterThan(1500)
    expect(f.now('co_a')).toMatchObject({ calls: 1 })
    expect(f.now('co_b')).toEqual({ calls: 0, waitMs: 0 })
    const start = performance.now()
    setTimeout(() => (f.released('co_a'), f.answered()), 1500)
    expect(await f.settled()).toEqual({ calls: 0, waitMs: 0 })
    expect(since(start)).toBeGreaterThanOrEqual(1400)
    expect([f.now(), f.now('co_a')]).toEqual([
      { calls: 0, waitMs: 0 },
      { calls: 0, waitMs: 0 },
    ])
  })

  it('gives up once the longest delay and the margin have passed, saying how many are left', async () => {
    const f = inFlight(() => performance.now())
    f.arrived()
    f.arrived()
    f.held('co_a', 200)
    f.answered()
    const start = performance.now()
    expect(await f.settled()).toEqual({ calls: 1, waitMs: 0 })
    expect(since(start)).toBeGreaterThanOrEqual(200 + ANSWER_MARGIN_MS - 50)
  })

  it('a call no delay holds gets the margin only', async () => {
    // Its own clock, so that a loaded machine's slowness is not taken for a longer wait.
    let now = 0
    const f = inFlight(() => now)
    f.arrived()
    let result: unknown
    const settling = f.settled().then((r) => (result = r))
    now = ANSWER_MARGIN_MS - 1
    await sleep(300) // past a check (every 250 ms at most): not yet
    expect(result).toBeUndefined()
    now = ANSWER_MARGIN_MS
    expect(await settling).toEqual({ calls: 1, waitMs: 0 })
  })
})
