// The receiver check from the dashboard's Webhooks page, in a browser: a standard subscription
// has a "Check receiver" button whose result lists every check; a bcb one has none; a company
// checks its own subscription.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { startHookReceiver } from '../readiness/receivers.js'
import type { TestSandbox } from '../harness.js'
import { CHROMIUM, signInAsAdmin, signInAsCompany, SKIP_REASON, useBrowser } from './browser.js'

describe.skipIf(!CHROMIUM)(
  `the Webhooks page's receiver check${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let s: TestSandbox
    let page: Page
    useBrowser((sandbox, p) => {
      s = sandbox
      page = p
    })

    it('checks a careless receiver and lists what failed, with advice; bcb subscriptions have no button', async () => {
      const rx = await startHookReceiver('careless')
      try {
        await s.admin('POST', '/webhooks', { url: rx.url })
        await s.admin('POST', '/webhooks', { url: 'http://127.0.0.1:9/bcb', format: 'bcb' })
        await signInAsAdmin(page, s)
        await page.goto(`${s.url}/_sandbox/ui/webhooks`)
        await expect(page.getByRole('button', { name: 'Check receiver' }).count()).resolves.toBe(1)
        await page.getByRole('button', { name: 'Check receiver' }).click()
        const alert = page.getByRole('alert')
        await alert.getByText('Receiver check: 3 of 5 checks passed').waitFor()
        const lines = await alert.locator('li').allTextContents()
        expect(lines).toHaveLength(5)
        expect(lines[2]).toMatch(
          /^FAILED bad_signature: expected 4xx, got 200 in \d+ ms\. Verify webhook-signature/,
        )
        expect(lines[3]).toMatch(/^FAILED stale_timestamp: expected 4xx, got 200/)
        expect(lines[0]).toMatch(/^passed valid: expected 2xx, got 200/)
        expect(rx.received).toHaveLength(5)
      } finally {
        await rx.close()
      }
    })

    it('a company checks its own receiver; a correct one passes', async () => {
      const rx = await startHookReceiver('correct')
      try {
        const auth = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
        const hook = await s.request('POST', '/_sandbox/webhooks', { auth, json: { url: rx.url } })
        rx.secret = hook.body.secret
        await signInAsCompany(page, s, 'sandbox-client', 'sandbox-secret')
        await page.goto(`${s.url}/_sandbox/ui/webhooks`)
        await page.getByRole('button', { name: 'Check receiver' }).click()
        await page.getByRole('status').getByText('Receiver check: 5 of 5 checks passed').waitFor()
        expect(await page.getByRole('status').locator('li').allTextContents()).toEqual([
          expect.stringMatching(/^passed valid: expected 2xx, got 204 in \d+ ms$/),
          expect.stringMatching(/^passed duplicate: expected 2xx, got 200/),
          expect.stringMatching(/^passed bad_signature: expected 4xx, got 400/),
          expect.stringMatching(/^passed stale_timestamp: expected 4xx, got 400/),
          expect.stringMatching(/^passed unknown_type: expected 2xx, got 204/),
        ])
      } finally {
        await rx.close()
      }
    })
  },
)
