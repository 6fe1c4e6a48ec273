// The dashboard as a newcomer met it, in a browser: the Events and Requests pages on a phone and
// a wide screen, queued outcomes and the magic values in words, the clock's message in the page's
// time zone, the Transfers filter, the icon, and what a company is told about secrets.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { AUTH, type TestSandbox } from '../harness.js'
import { CHROMIUM, signInAsAdmin, signInAsCompany, SKIP_REASON, useBrowser } from './browser.js'

const PHONE = { width: 390, height: 844 }

/** Elements matching `selector` whose box reaches past the right edge of the viewport. */
const offScreen = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((els) =>
      els
        .filter((e) => e.getBoundingClientRect().right > (globalThis as any).innerWidth + 0.5)
        .map((e) => e.textContent),
    )

describe.skipIf(!CHROMIUM)(
  `the dashboard a newcomer met${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let s: TestSandbox
    let page: Page
    useBrowser((sandbox, p) => {
      s = sandbox
      page = p
    })

    const someHistory = async () => {
      for (const amount of [1000, 2500, 4590]) {
        const r = await s.request('POST', '/api/v1/hub/transactions/in', {
          auth: AUTH.main,
          json: { amount, description: `Pedido ${amount}` },
        })
        await s.admin('POST', `/charges/${r.body.transaction_id}/pay`)
      }
      await s.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 777, pix_key: 'joao.da.silva.souza@example.com', pix_type: 'EMAIL' },
      })
    }

    it('Events: nothing cut at 1280 px; at 390 px every field on screen and an id on at most two lines', async () => {
      await someHistory()
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/events`)
      const table = page.locator('#events .scroll')
      expect(await table.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0)
      expect(await offScreen(page, '#events td')).toEqual([])

      await page.setViewportSize(PHONE)
      expect(
        await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(PHONE.width)
      expect(await offScreen(page, '#events td, #events td *')).toEqual([])
      const idHeights = await page
        .locator('#events .id code')
        .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
      expect(idHeights.length).toBeGreaterThan(10)
      const line = await page
        .locator('#events .id code')
        .first()
        .evaluate((e) => parseFloat((globalThis as any).getComputedStyle(e).lineHeight) || 20)
      for (const h of idHeights) expect(h).toBeLessThanOrEqual(2 * line + 1)
    })

    it('Requests at 390 px: time, status, duration and company of every request on screen', async () => {
      await someHistory()
      // A call a drop fault closed without an answer says so beside its status.
      await s.admin('POST', '/faults', { operation: 'transfer', drop: true, times: 1 })
      await expect(
        fetch(`${s.url}/api/v1/hub/transactions/out`, {
          method: 'POST',
          headers: { authorization: AUTH.main, 'content-type': 'application/json' },
          body: JSON.stringify({ amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' }),
        }),
      ).rejects.toThrow()
      await signInAsAdmin(page, s)
      await page.setViewportSize(PHONE)
      await page.goto(`${s.url}/_sandbox/ui/requests`)
      const rows = page.locator('#requests tbody tr')
      expect(await rows.count()).toBeGreaterThan(5)
      for (const label of ['When', 'Status', 'Took', 'Company']) {
        const cells = page.locator(`#requests td[data-label="${label}"]`)
        expect(await cells.count()).toBe(await rows.count())
        expect(
          await cells.evaluateAll(
            (els) => els.filter((e) => (e as any).offsetParent === null).length,
          ),
          `${label} hidden`,
        ).toBe(0)
      }
      await page
        .locator('#requests td[data-label="Company"]')
        .getByText('loja-exemplo')
        .first()
        .waitFor()
      const dropped = page.locator('#requests td[data-label="Status"]', {
        hasText: 'dropped: not answered',
      })
      expect(await dropped.count()).toBe(1)
      expect(await dropped.isVisible()).toBe(true)
      expect(await offScreen(page, '#requests td, #requests td *')).toEqual([])
    })

    it('shows a queued outcome in words, and the inactive key of the magic values', async () => {
      await s.admin('POST', '/outcomes', {
        status: 'pending',
        settle_after_seconds: 30,
        final_status: 'failed',
        match: { pix_key: 'joao@example.com' },
        times: 2,
      })
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      const queued = page.locator('#outcomes tbody tr')
      expect(await queued.count()).toBe(1)
      expect(await queued.locator('td[data-label="Next transfer"]').innerText()).toMatch(
        /^pending\s+then fails 30 s later \(refunded\)$/,
      )
      expect(await queued.locator('td[data-label="Matching"]').innerText()).toBe(
        'a transfer to joao@example.com',
      )
      expect(await queued.locator('td[data-label="Times left"]').innerText()).toBe('2')
      expect(await page.locator('#outcomes').innerText()).not.toContain('"status"')

      const magic = page.locator('section', {
        has: page.getByRole('heading', { name: 'Magic values' }),
      })
      const row = magic.locator('tr', { hasText: 'failed@pix.example' })
      expect(await row.innerText()).toMatch(
        /a transfer to failed@pix\.example \(EMAIL, an inactive key\)\s+failed Pix key not found or inactive/,
      )
      // The amounts of the rules in reais, and as the API takes them.
      expect(await magic.locator('tr', { hasText: '666' }).innerText()).toMatch(
        /a transfer of R\$ 6,66 \(amount 666\)\s+failed Transfer rejected by the receiving institution/,
      )
    })

    it("says where the clock went in the page's time zone", async () => {
      await signInAsAdmin(page, s)
      const shown = await page.locator('#clock time').innerText() // 2026-03-01 09:00:00, São Paulo
      await page.getByRole('button', { name: '+1 h' }).click()
      const message = await page.getByRole('status').innerText()
      expect(message).toBe(
        `Advanced to ${shown.replace('09:00:00', '10:00:00')} (America/Sao_Paulo): nothing was due`,
      )
    })

    it('filters transfers by a company picked from a list, as Charges does', async () => {
      const shop = (await s.admin('POST', '/companies', { name: 'Loja Dois', balance: 5000 })).body
      const mine = await s.request('POST', '/api/v1/hub/transactions/out', {
        auth: `Basic ${shop.token}`,
        json: { amount: 100, pix_key: 'a@example.com', pix_type: 'EMAIL' },
      })
      await s.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 200, pix_key: 'b@example.com', pix_type: 'EMAIL' },
      })
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      const company = page.locator('form[method="get"] select[name="company_id"]')
      expect((await company.locator('option').allInnerTexts()).sort()).toEqual(
        ['any', 'loja-exemplo', 'loja-inativa', shop.company_id].sort(),
      )
      await company.selectOption(shop.company_id)
      await page.getByRole('button', { name: 'Filter' }).click()
      await page.waitForURL(/company_id=/)
      expect(
        await page
          .locator('#transfers tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
      ).toEqual([mine.body.transaction_id])
    })

    it('queues an outcome for a company picked from a list, as the filters do', async () => {
      const shop = (await s.admin('POST', '/companies', { name: 'Loja Tres', balance: 5000 })).body
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      const form = page.locator('#outcomes form[method="post"]', {
        has: page.getByRole('button', { name: 'Queue' }),
      })
      const company = form.locator('select[name="company_id"]')
      expect((await company.locator('option').allInnerTexts()).sort()).toEqual(
        ['all companies', 'loja-exemplo', 'loja-inativa', shop.company_id].sort(),
      )
      await company.selectOption(shop.company_id)
      await form.getByRole('button', { name: 'Queue' }).click()
      await page.locator('#outcomes tbody tr').first().waitFor()
      expect(
        (await s.admin('GET', '/outcomes')).body.data.map(
          (o: { company_id: string | null }) => o.company_id,
        ),
      ).toEqual([shop.company_id])
    })

    it('names an icon the package serves on every page, the reference included', async () => {
      await signInAsAdmin(page, s)
      for (const path of ['/_sandbox/ui', '/_sandbox/ui/events', '/_sandbox/ui/sign-in', '/docs']) {
        await page.goto(`${s.url}${path}`)
        const href = await page.locator('link[rel="icon"]').getAttribute('href')
        const icon = await page.request.get(new URL(href!, page.url()).href)
        expect([path, icon.status(), icon.headers()['content-type']]).toEqual([
          path,
          200,
          'image/svg+xml',
        ])
      }
      expect((await fetch(`${s.url}/favicon.ico`)).status).toBe(200)
    })

    it('tells a company that its secret is the one it signed in with, not about creating companies', async () => {
      await signInAsCompany(page, s, 'sandbox-client', 'sandbox-secret')
      await page
        .getByText('Secrets are stored hashed: yours is the one you signed in with.')
        .waitFor()
      expect(await page.getByText('a company created here').count()).toBe(0)
    })
  },
)
