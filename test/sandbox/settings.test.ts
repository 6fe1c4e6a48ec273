// Every scenario setting changes what docs/CONTROL-PLANE.md#scenario-files says it changes: each
// has a demonstration here (typed by the settings, so a new setting fails the typecheck until it
// has one), a call whose answer differs once a value other than the default is applied (and is
// the same when made twice before: what differs on every call, an id, demonstrates nothing). And a
// rule of the scenario holds whatever outcome a test picks: each demonstration is also made with
// `X-Sandbox-Outcome: pending` on its transfers (a rule placed after the outcome fails there).
// A setting that changes a transfer's answer changes the dashboard's cheat sheet of what decides
// transfers (src/ui/pages/outcomes.tsx) too, and a transfer it makes fail is said there in the
// words the transfer answers, and offered by name on the Send a transfer form (src/ui/magic.ts).
// A setting that fails a transfer is named in docs/CONTRACT.md's business order, after the steps
// that decide before it (the balance; the key directory, for one the directory decides first).
// A setting that lists keys decides the keys it lists, no other.
import { describe, expect, it } from 'vitest'
import type { Settings } from '../../src/domain/types.js'
import { MAX_AMOUNT } from '../../src/domain/money.js'
import { INSUFFICIENT_BALANCE, KEY_NOT_FOUND } from '../../src/domain/transfer.js'
import { DEFAULT_SETTINGS } from '../../src/scenarios/settings.js'
import { keyType } from '../../src/ui/magic.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import {
  TRANSFERS_PATH,
  balances,
  inOrder,
  keysBeside,
  listedKeys,
  offersTheFailure,
  outcomeOf,
  rowsNaming,
  saysOfEachKey,
  settingInOrder,
  transfersMade,
  transfersPage,
} from './setting-checks.js'

interface Demonstration {
  /** A value other than the default. */
  value: unknown
  /** What the setting changes, as a call answers it; `outcome`: the pick for its transfers. */
  observe(sb: TestSandbox, outcome?: string): Promise<unknown>
}

const charge = (sb: TestSandbox, json: unknown = { amount: 1000 }) =>
  sb.request('POST', '/api/v1/hub/transactions/in', { auth: AUTH.main, json })
const transfer = (sb: TestSandbox, json: object, outcome?: string, auth = AUTH.main) =>
  sb.request('POST', '/api/v1/hub/transactions/out', {
    auth,
    json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL', ...json },
    headers: outcome ? { 'x-sandbox-outcome': outcome } : undefined,
  })
const answered = (r: { status: number; body: any }) => ({ status: r.status, body: r.body })

/** Waits until the first delivery has been attempted (it is sent on a later turn). */
async function firstAttempted(sb: TestSandbox) {
  for (;;) {
    const page = await sb.admin('GET', '/webhooks/deliveries')
    const attempted = page.body.data.find((d: { last_error: unknown }) => d.last_error !== null)
    if (attempted) return attempted
    await new Promise((r) => setTimeout(r, 10))
  }
}

const DEMONSTRATIONS: Record<keyof Settings, Demonstration> = {
  charge_ttl_seconds: {
    value: 60,
    observe: async (sb) => (await charge(sb)).body.expiration_date,
  },
  timezone: { value: 'UTC', observe: async (sb) => (await charge(sb)).body.expiration_date },
  validation_errors: {
    value: 'fastapi',
    observe: async (sb) => answered(await charge(sb, { amount: 0 })),
  },
  strict_content_type: {
    value: false,
    observe: async (sb) =>
      (
        await sb.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          // Bytes: fetch sends no Content-Type with them (a string would be text/plain).
          body: new TextEncoder().encode('{"amount": 1000}'),
        })
      ).status,
  },
  insufficient_balance: {
    value: 'failed',
    observe: async (sb, outcome) =>
      answered(await transfer(sb, { amount: 5000 }, outcome, AUTH.emptyBalance)),
  },
  unknown_pix_keys: {
    value: 'reject',
    observe: async (sb, outcome) =>
      (await transfer(sb, { pix_key: 'nobody@example.com' }, outcome)).body.status,
  },
  outcome_header: {
    value: false,
    observe: async (sb) => (await transfer(sb, {}, 'pending')).body.status,
  },
  webhook_retry_seconds: {
    value: [7],
    observe: async (sb) => {
      const hook = await sb.request('POST', '/_sandbox/webhooks', {
        auth: AUTH.main,
        json: { url: 'http://127.0.0.1:9/closed', events: ['charge.paid'] },
      })
      await sb.admin('POST', `/charges/${(await charge(sb)).body.transaction_id}/pay`, {})
      const attempted = await firstAttempted(sb)
      await sb.admin('DELETE', `/webhooks/${hook.body.id}`)
      // The delay after the first attempt, in seconds (its instant is the clock's, which moves).
      const first = attempted.attempts[0].at
      return Math.round((Date.parse(attempted.next_attempt_at) - Date.parse(first)) / 1000)
    },
  },
}

/** The settings about keys missing from the key directory: listing the key undoes what they do. */
const ABOUT_UNLISTED_KEYS: (keyof Settings)[] = ['unknown_pix_keys']

describe('every scenario setting', () => {
  it('has a demonstration, and its value there is not the default', () => {
    expect(Object.keys(DEMONSTRATIONS).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort())
    for (const [name, { value }] of Object.entries(DEMONSTRATIONS)) {
      expect(value, name).not.toEqual(DEFAULT_SETTINGS[name as keyof Settings])
      // A list of keys lists two, so that what it does is seen done for each, not the first only.
      if (listedKeys(value).length > 0)
        expect(listedKeys(value).length, `${name} lists two keys or more`).toBeGreaterThan(1)
    }
  })

  it.each(Object.keys(DEMONSTRATIONS) as (keyof Settings)[])(
    '%s changes what a call answers, whatever outcome its transfers pick',
    async (name) => {
      const { value, observe } = DEMONSTRATIONS[name]
      for (const outcome of [undefined, 'pending']) {
        const sb = await startTestSandbox()
        try {
          const page = await transfersPage(sb)
          const before = await observe(sb, outcome)
          const decidesTransfers = (await transfersMade(sb)) > 0
          // What it observes is what the setting decides, not what differs on every call (an id).
          expect(await observe(sb, outcome), `${name}: observed twice, unchanged`).toEqual(before)
          sb.apply({ settings: { [name]: value } })
          // Kept as written: the scenario in force answers the value applied (a list of keys
          // with capitals among them too: a key is matched exactly, never folded).
          for (const written of listedKeys(value).length > 0
            ? [[...listedKeys(value), 'Ana.Souza@Example.com'], value]
            : [value]) {
            sb.apply({ settings: { [name]: written } })
            expect(
              (await sb.admin('GET', '/scenario')).body.settings[name],
              `${name} kept as written`,
            ).toEqual(written)
          }
          const money = await balances(sb)
          expect(await observe(sb, outcome), `${name} with outcome ${outcome}`).not.toEqual(before)
          if (decidesTransfers) {
            // The demonstration's last transfer call, as the journal holds it (the form sends more below).
            const [sent] = (await sb.admin('GET', `/requests?path=${TRANSFERS_PATH}&limit=1`)).body
              .data
            const answer = sent.response.body
            const after = await transfersPage(sb)
            expect(after.sheet, `${name} on the cheat sheet`).not.toEqual(page.sheet)
            if (answer.status === 'failed') {
              expect(after.sheet, `${name}: the cheat sheet says "${answer.message}"`).toContain(
                answer.message,
              )
              // Named in the business order (docs/CONTRACT.md), after the balance, before the outcome.
              const named = settingInOrder(name)
              expect(named, `${name} in CONTRACT.md's business order`).toBeGreaterThan(
                inOrder('balance'),
              )
              expect(named, `${name} before the outcome there`).toBeLessThan(inOrder('the outcome'))
              // A failed transfer is recorded without a debit (docs/CONTRACT.md, money).
              expect(await balances(sb), `${name}: a failed transfer moves no money`).toEqual(money)
              await offersTheFailure(sb, name, page.magic, after.magic, answer.message)
              const answerOf = async (key: string) =>
                outcomeOf(
                  await transfer(
                    sb,
                    { ...sent.request.body, pix_key: key, pix_type: keyType(key) },
                    outcome,
                  ),
                )
              // Each key it lists is decided so, and offered by its own magic value.
              for (const key of listedKeys(value)) {
                expect(await answerOf(key), `${name}: ${key}`).toEqual(
                  outcomeOf({ status: 200, body: answer }),
                )
                expect(
                  [...after.magic.keys()].some(
                    (v) => new URLSearchParams(v).get('pix_key') === key,
                  ),
                  `${name}: Send a transfer offers ${key}, a key it lists`,
                ).toBe(true)
              }
              // Each key it lists is said as a transfer to it answers; and so it still is beside a
              // setting about keys the directory does not list, at its demonstrated value.
              if (listedKeys(value).length > 0) {
                await saysOfEachKey(sb, name, listedKeys(value), answerOf)
                for (const about of ABOUT_UNLISTED_KEYS) {
                  sb.apply({ settings: { [name]: value, [about]: DEMONSTRATIONS[about].value } })
                  await saysOfEachKey(sb, `${name} beside ${about}`, listedKeys(value), answerOf)
                  sb.apply({ settings: { [about]: DEFAULT_SETTINGS[about] } })
                }
                // And listing the keys beside the directory's inactive ones (the same in capitals,
                // a longer address): the directory matches a key exactly, and so does the sheet.
                const beside = (await sb.admin('GET', '/scenario')).body.inactive_keys.flatMap(
                  (k: { key: string; type: string }) =>
                    keysBeside({ pix_key: k.key, pix_type: k.type }),
                )
                sb.apply({ settings: { [name]: beside } })
                await saysOfEachKey(
                  sb,
                  `${name} listing keys beside inactive ones`,
                  beside,
                  answerOf,
                )
                sb.apply({ settings: { [name]: value } })
              }
              // A queued outcome is used up only by a transfer it decides: not by one a setting
              // failed before the outcome was looked at (docs/CONTRACT.md, business order).
              await sb.admin('POST', '/outcomes', { status: 'pending', times: 1 })
              const queued = (await sb.admin('GET', '/outcomes')).body
              await observe(sb, outcome)
              expect(
                (await sb.admin('GET', '/outcomes')).body,
                `${name}: a queued outcome left as it was`,
              ).toEqual(queued)
              await sb.admin('DELETE', '/outcomes')
            }
            // It decides whether or not the key is in the key directory (but the setting that is
            // about keys not there): with the key listed, active, the answer still differs.
            if (!ABOUT_UNLISTED_KEYS.includes(name)) {
              const { pix_key: key, pix_type: type } = sent.request.body
              sb.apply({ pix_keys: [{ key, type, active: true }] })
              expect(
                await observe(sb, outcome),
                `${name}, ${key} in the key directory`,
              ).not.toEqual(before)
            }
            // Then the key directory (docs/CONTRACT.md, business order): with the key listed
            // inactive, the transfer fails for the key, whatever the setting says; but a setting
            // the balance decides first, or one about keys not listed.
            if (!ABOUT_UNLISTED_KEYS.includes(name) && answer.message !== INSUFFICIENT_BALANCE) {
              const { pix_key: key, pix_type: type } = sent.request.body
              sb.apply({ pix_keys: [{ key, type, active: false }] })
              await observe(sb, outcome)
              const [last] = (await sb.admin('GET', `/requests?path=${TRANSFERS_PATH}&limit=1`))
                .body.data
              expect(
                last.response.body,
                `${name}, ${key} inactive in the key directory`,
              ).toMatchObject({ status: 'failed', message: KEY_NOT_FOUND })
              // And the cheat sheet says of the key what a transfer to it answers, nothing else.
              for (const row of rowsNaming((await transfersPage(sb)).sheet, key))
                expect(row, `${name}: the cheat sheet on ${key}, inactive`).toContain(KEY_NOT_FOUND)
              sb.apply({ pix_keys: [{ key, type, active: true }] })
              if (answer.status === 'failed')
                expect(
                  settingInOrder(name),
                  `${name} after the key directory in CONTRACT.md's business order`,
                ).toBeGreaterThan(inOrder('key directory'))
            }
            // The balance is decided first (docs/CONTRACT.md, business order): the same transfer,
            // beyond its sender's balance, is answered for the balance whatever the setting says.
            const beyond = await transfer(
              sb,
              { ...sent.request.body, amount: MAX_AMOUNT },
              outcome,
              AUTH.emptyBalance,
            )
            expect(beyond.body.detail ?? beyond.body.message, `${name}: the balance first`).toBe(
              INSUFFICIENT_BALANCE,
            )
            // A setting that lists keys decides those keys and no other: a key that contains a
            // listed one (a longer address), or the same in capitals, is answered as it is
            // without the setting.
            if (Array.isArray(value) && value.includes(sent.request.body.pix_key)) {
              const near = keysBeside(sent.request.body).map((pix_key) => ({
                ...sent.request.body,
                pix_key,
              }))
              const under = []
              for (const body of near) under.push(outcomeOf(await transfer(sb, body, outcome)))
              sb.apply({ settings: { [name]: DEFAULT_SETTINGS[name] } })
              const without = outcomeOf(await transfer(sb, sent.request.body, outcome))
              for (const [i, body] of near.entries())
                expect(under[i], `${name} decides ${body.pix_key}, a key it does not list`).toEqual(
                  outcomeOf(await transfer(sb, body, outcome)),
                )
              // Listed with spaces around it, it is another key (or refused as written).
              const spaced = ` ${sent.request.body.pix_key} `
              let taken = true
              try {
                sb.apply({ settings: { [name]: [spaced] } })
              } catch {
                taken = false
              }
              if (taken)
                expect(
                  outcomeOf(await transfer(sb, sent.request.body, outcome)),
                  `${name} listing "${spaced}" decides ${sent.request.body.pix_key}`,
                ).toEqual(without)
            }
          }
        } finally {
          await sb.close()
        }
      }
    },
    // Two sandboxes and two dashboard pages each: seconds alone, more on a loaded machine; the
    // suite's bound is about hangs (test/hang.ts).
  )
})
