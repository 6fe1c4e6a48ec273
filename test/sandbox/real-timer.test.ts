// The server's own timer, on the real clock: every other test drives time by hand (a manual
// clock, /clock/advance, runDue), so none of them would notice a ticker that stopped running due
// work. Here a scenario document shortens every delay to a few seconds, and the test waits for
// each outcome to appear (polling, bounded only against a hang), never for a fixed time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { HANG_MS } from '../hang.js'
import { AUTH, request, testConfig } from '../harness.js'

let sb: RunningSandbox
beforeEach(async () => (sb = await startSandbox(testConfig(), { log: silentLog })))
afterEach(() => sb.close())

const admin = (method: string, path: string, json?: unknown) =>
  request(sb.url, method, `/_sandbox${path}`, { auth: `Bearer ${sb.adminToken}`, json })
const post = (path: string, json: unknown) =>
  request(sb.url, 'POST', `/api/v1/hub/transactions/${path}`, { auth: AUTH.main, json })
/** Polls until the record reaches `status`; bounded only against a hang (test/hang.ts). */
const reaches = (path: string, status: string) =>
  vi.waitFor(async () => expect((await admin('GET', path)).body.status).toBe(status), {
    timeout: HANG_MS,
    interval: 100,
  })

describe('the server timer on the real clock', () => {
  it('expires, auto-pays and settles on its own, without /clock/advance', async () => {
    const applied = await admin('POST', '/scenarios', {
      document: {
        // Seconds, not one: the balance read just after the three calls must come before any of them
        // (and the charge to auto-pay must not expire first).
        settings: { charge_ttl_seconds: 5 },
        rules: {
          charges: [{ when: { amount: 1111 }, then: { auto_pay_after_seconds: 3 } }],
          transfers: [
            {
              when: { amount: 2222 },
              then: { status: 'pending', settle_after_seconds: 3, final_status: 'failed' },
            },
          ],
        },
      },
    })
    expect(applied.status).toBe(200)
    const balance = async () =>
      (await admin('GET', '/users/loja-exemplo-user/balance')).body.balance as number
    const opening = await balance()

    const expiring = (await post('in', { amount: 1000 })).body.transaction_id
    const autoPaid = (await post('in', { amount: 1111 })).body.transaction_id
    const settling = (
      await post('out', { amount: 2222, pix_key: 'maria@example.com', pix_type: 'EMAIL' })
    ).body
    expect(settling.status).toBe('pending')
    expect(await balance()).toBe(opening - 2222)

    await reaches(`/charges/${autoPaid}`, 'paid')
    await reaches(`/transfers/${settling.transaction_id}`, 'failed')
    await reaches(`/charges/${expiring}`, 'cancelled')
    expect((await admin('GET', `/charges/${expiring}`)).body.cancel_reason).toBe('expired')
    // Paid once and refunded once: the timer's work went through the ledger like any other.
    expect(await balance()).toBe(opening + 1111)
    const types = (await admin('GET', '/events?limit=100')).body.data.map(
      (e: { type: string }) => e.type,
    )
    expect(types).toEqual(
      expect.arrayContaining(['charge.paid', 'transfer.failed', 'charge.cancelled']),
    )
  })
})
