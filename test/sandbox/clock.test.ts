// The virtual clock: advance runs what is due, in due order, deterministically.
import { afterEach, describe, expect, it } from 'vitest'
import { createClock, SECOND } from '../../src/clock.js'
import { AUTH, startTestSandbox, T0, type TestSandbox } from '../harness.js'

const opened: TestSandbox[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()))
})
const start = async (seed?: string) => {
  const sb = await startTestSandbox({ seed })
  opened.push(sb)
  return sb
}

/** A little day of activity: charges that expire or auto-pay, transfers that settle. */
async function story(sb: TestSandbox) {
  const charge = (amount: number) =>
    sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json: { amount } })
  const transfer = (amount: number, pix_key = 'maria@example.com') =>
    sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount, pix_key, pix_type: 'EMAIL' },
    })
  await charge(4242)
  await charge(1000)
  await transfer(777)
  await transfer(300, 'pending@pix.example')
  return (await sb.admin('POST', '/clock/advance', { seconds: 3600 })).body
}

describe('POST /_sandbox/clock/advance', () => {
  it('runs expiry, automatic payment and settlements in due order and returns their events', async () => {
    const sb = await start()
    const result = await story(sb)
    expect(result.now).toBe('2026-03-01T13:00:00.000000Z')
    const timeline = result.events
      .filter((e: { type: string }) => e.type !== 'balance.changed')
      .map((e: { type: string; at: string }) => `${e.at.slice(11, 19)} ${e.type}`)
    expect(timeline).toEqual([
      '12:00:05 charge.paid',
      '12:00:30 transfer.failed',
      '12:01:00 transfer.succeeded',
      '13:00:00 charge.cancelled',
    ])
  })

  it('is deterministic: the same start state gives the same events', async () => {
    const strip = (
      events: { type: string; at: string; company_id: string; data: Record<string, unknown> }[],
    ) => events.map((e) => ({ type: e.type, at: e.at, company_id: e.company_id, data: e.data }))
    const a = strip((await story(await start('same-seed'))).events)
    const b = strip((await story(await start('same-seed'))).events)
    expect(a.length).toBeGreaterThan(5)
    expect(a).toEqual(b)
  })

  it('refuses a missing, zero or negative number of seconds', async () => {
    const sb = await start()
    for (const body of [{}, { seconds: 0 }, { seconds: -5 }, { seconds: 'ten' }])
      expect((await sb.admin('POST', '/clock/advance', body)).status).toBe(422)
    expect((await sb.admin('GET', '/clock')).body.now).toBe('2026-03-01T12:00:00.000000Z')
  })
})

describe('freeze, resume, reset', () => {
  it('a real clock freezes, resumes from where it stopped, and resets to real time', () => {
    let real = T0
    const clock = createClock(() => real)
    clock.advance(60 * SECOND)
    clock.freeze()
    real += 10 * SECOND
    expect(clock.now()).toBe(T0 + 60 * SECOND)
    clock.advance(5 * SECOND)
    expect(clock.now()).toBe(T0 + 65 * SECOND)
    clock.resume()
    real += 2 * SECOND
    expect(clock.now()).toBe(T0 + 67 * SECOND)
    clock.reset()
    expect(clock.now()).toBe(real)
  })

  it('answers the clock state over HTTP', async () => {
    const sb = await start()
    await sb.admin('POST', '/clock/advance', { seconds: 90 })
    expect((await sb.admin('POST', '/clock/freeze')).body).toEqual({
      now: '2026-03-01T12:01:30.000000Z',
      offset_seconds: 90,
      frozen: true,
    })
    expect((await sb.admin('POST', '/clock/resume')).body.frozen).toBe(false)
    expect((await sb.admin('POST', '/clock/reset')).body).toEqual({
      now: '2026-03-01T12:00:00.000000Z',
      offset_seconds: 0,
      frozen: false,
    })
  })
})

describe('POST /_sandbox/reset after time travel', () => {
  it("stamps the re-seeded state at the reset clock's time, so later entries are never older", async () => {
    const sb = await start()
    await sb.admin('POST', '/clock/advance', { seconds: 1000 })
    expect((await sb.admin('POST', '/reset')).status).toBe(200)
    expect((await sb.admin('GET', '/clock')).body).toMatchObject({
      now: '2026-03-01T12:00:00.000000Z',
      offset_seconds: 0,
    })
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).body,
    ).toMatchObject({
      created_at: '2026-03-01T12:00:00.000000Z',
      updated_at: '2026-03-01T12:00:00.000000Z',
    })
    await sb.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    const entries = (await sb.admin('GET', '/users/loja-exemplo-user/balance')).body.entries as {
      kind: string
      at: string
    }[]
    expect(entries.map((e) => e.at)).toEqual(entries.map(() => '2026-03-01T12:00:00.000000Z'))
    expect(entries.map((e) => e.kind)).toContain('opening')
  })
})
