// The dashboard in a real browser: signing in, charges arriving live, the QR code, paying,
// expiry by the virtual clock, cross-site posts and wrong credentials.
import jsQRModule from 'jsqr'
import { PNG } from 'pngjs'

import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { AUTH, type TestSandbox } from '../harness.js'
import { CHROMIUM, liveOpen, signInAsAdmin, SKIP_REASON, useBrowser } from './browser.js'

// jsqr is CommonJS with a default export; under ESM it arrives wrapped.
const jsQR = ((jsQRModule as any).default ?? jsQRModule) as unknown as typeof import('jsqr').default

describe.skipIf(!CHROMIUM)(
  `dashboard in a browser${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let s: TestSandbox
    let page: Page
    useBrowser((sandbox, p) => {
      s = sandbox
      page = p
    })

    const createCharge = async (amount: number, auth = AUTH.main) => {
      const r = await s.request('POST', '/api/v1/hub/transactions/in', { auth, json: { amount } })
      expect(r.status).toBe(200)
      return r.body as { transaction_id: string; qr_code: string }
    }
    const balanceText = () =>
      page.locator('tr[data-user="loja-exemplo-user"] .balance').textContent()

    it('signs in with the admin token and shows the companies with their balances', async () => {
      await signInAsAdmin(page, s)
      await page.getByText('Loja Exemplo Ltda', { exact: true }).waitFor()
      expect(await balanceText()).toBe('R$ 10.000,00')
      // The admin may reveal the secrets the scenario file declares.
      const row = page.locator('tr[data-user="loja-exemplo-user"]')
      for (const summary of await row.locator('details.secret summary').all()) await summary.click()
      await row.getByText('sandbox-secret', { exact: true }).waitFor()
      // Signing out ends the session: the pages ask to sign in again.
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.goto(`${s.url}/_sandbox/ui/charges`)
      await page.getByRole('button', { name: 'Sign in as admin' }).waitFor()
    })

    it('shows an error, not a crash, for a wrong token or wrong credentials', async () => {
      await page.goto(`${s.url}/_sandbox/ui`)
      await page.getByLabel(/Admin token/).fill('not-the-token')
      await page.getByRole('button', { name: 'Sign in as admin' }).click()
      await page.getByRole('alert').getByText('Not authenticated').waitFor()
      await page.getByLabel('client_id').fill('sandbox-client')
      await page.getByLabel('client_secret').fill('wrong')
      await page.getByRole('button', { name: 'Sign in as this company' }).click()
      await page.getByRole('alert').getByText('Not authenticated').waitFor()
    })

    it('shows a charge created through the contract without a reload, its QR code decodes to its qr_code, and Pay credits and queues a delivery', async () => {
      const hook = await s.admin('POST', '/webhooks', {
        url: 'http://127.0.0.1:9/hook',
        events: ['charge.paid'],
      })
      expect(hook.status).toBe(201)
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/charges`)
      await page.getByText('No charges yet').waitFor()
      await liveOpen(page)
      const charge = await createCharge(1000)
      const link = page.getByRole('link', { name: charge.transaction_id })
      await link.waitFor()
      await link.click()

      const qr = page.locator('#qr')
      const png = PNG.sync.read(await qr.screenshot())
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
      expect(decoded?.data).toBe(charge.qr_code)
      expect(await page.locator('#qr-code').inputValue()).toBe(charge.qr_code)
      expect(await page.locator('.amount').textContent()).toBe('R$ 10,00')
      await page
        .locator('.countdown', { hasText: /expires in 59:5\d|expires in 1:00:00/ })
        .waitFor()

      await page.getByRole('button', { name: 'Pay', exact: true }).click()
      await page.locator('#charge .badge', { hasText: 'paid' }).first().waitFor()
      expect(await page.locator('.payer').textContent()).toMatch(/\(\d{11}\)/)
      expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0)

      await page.goto(`${s.url}/_sandbox/ui`)
      expect(await balanceText()).toBe('R$ 10.010,00')
      await page.goto(`${s.url}/_sandbox/ui/webhooks`)
      await page.locator('#deliveries').getByText('charge.paid').first().waitFor()
    })

    it("shows the control plane's refusal text when an action is not allowed", async () => {
      const charge = await createCharge(500)
      await s.admin('POST', `/charges/${charge.transaction_id}/cancel`)
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui`)
      await page.getByLabel('Advance by (seconds)').fill('-5')
      await page.getByRole('button', { name: 'Advance', exact: true }).click()
      const refusal = await s.admin('POST', '/clock/advance', { seconds: -5 })
      await page.getByRole('alert').getByText(refusal.body.detail).waitFor()
    })

    it('cancels a pending charge on its open page, without a reload, when the clock is advanced past its expiry', async () => {
      const charge = await createCharge(2500)
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/charges/${charge.transaction_id}`)
      await page.locator('#charge .badge', { hasText: 'pending' }).first().waitFor()
      await liveOpen(page)
      // The clock is moved from another tab of the dashboard.
      const other = await page.context().newPage()
      await other.goto(`${s.url}/_sandbox/ui`)
      await other.getByRole('button', { name: '+1 h' }).click()
      await other
        .getByRole('status')
        .getByText(/Advanced to/)
        .waitFor()
      await page.locator('#charge').getByText('(expired)').waitFor()
      expect(await page.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0)
      expect((await s.admin('GET', `/charges/${charge.transaction_id}`)).body.status).toBe(
        'cancelled',
      )
    })

    it('pays whatever charge a pasted code points at, and says why when no charge matches', async () => {
      const charge = await createCharge(4321)
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/charges`)
      await page.getByLabel(/copy-and-paste BR Code/).fill('not a code')
      await page.getByRole('button', { name: 'Pay', exact: true }).click()
      await page
        .getByRole('alert')
        .getByText('qr_code: must be a valid BR Code (format and CRC)')
        .waitFor()
      await page.getByLabel(/copy-and-paste BR Code/).fill(charge.qr_code)
      await page.getByRole('button', { name: 'Pay', exact: true }).click()
      await page.getByRole('heading', { name: `Charge ${charge.transaction_id}` }).waitFor()
      await page.locator('#charge .badge', { hasText: 'paid' }).first().waitFor()
    })

    it('refuses a cross-site POST even with the session cookie', async () => {
      const charge = await createCharge(700)
      await signInAsAdmin(page, s)
      const status = await page.evaluate(async (url) => {
        const r = await fetch(url, {
          method: 'POST',
          body: new URLSearchParams({ x: '1' }),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
        return r.status
      }, `${s.url}/_sandbox/ui/charges/${charge.transaction_id}/pay`)
      // Same-origin fetch works (303 to the page, followed), a forged Origin does not.
      expect(status).toBe(200)
      const cookies = await page.context().cookies()
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ')
      const forged = await fetch(`${s.url}/_sandbox/ui/charges/${charge.transaction_id}/cancel`, {
        method: 'POST',
        headers: {
          cookie,
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'x=1',
        redirect: 'manual',
      })
      expect(forged.status).toBe(403)
      expect((await s.admin('GET', `/charges/${charge.transaction_id}`)).body.status).toBe('paid')
    })
  },
)
