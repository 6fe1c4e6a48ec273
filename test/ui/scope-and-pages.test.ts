// The dashboard in a browser, continued: a company sees its own records only (list, URL, live
// stream) and cannot run admin actions; transfers settle; webhook attempts and their headers
// arrive pushed; the journal, events and faults pages.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { eventually } from '../hang.js'
import { AUTH, basic, type TestSandbox } from '../harness.js'
import { setBySandbox } from '../webhooks/receiver.js'
import {
  CHROMIUM,
  liveOpen,
  signInAsAdmin,
  signInAsCompany,
  SKIP_REASON,
  useBrowser,
} from './browser.js'

describe.skipIf(!CHROMIUM)(
  `dashboard scope and pages in a browser${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let s: TestSandbox
    let page: Page
    useBrowser((sandbox, p) => {
      s = sandbox
      page = p
    })

    const charge = async (auth: string, amount: number) => {
      const r = await s.request('POST', '/api/v1/hub/transactions/in', { auth, json: { amount } })
      expect(r.status).toBe(200)
      return r.body.transaction_id as string
    }

    it('shows a company its own charges only: not in the list, not by URL, not in the live stream', async () => {
      const other = (await s.admin('POST', '/companies', { name: 'Outra Loja', balance: 0 })).body
      const theirs = await charge(AUTH.main, 1111)
      await signInAsCompany(page, s, other.client_id, other.client_secret)
      await page.goto(`${s.url}/_sandbox/ui/charges`)
      await page.getByText('No charges yet').waitFor()
      await liveOpen(page)

      const later = await charge(AUTH.main, 2222)
      const mine = await charge(basic(other.client_id, other.client_secret), 3333)
      await page.getByRole('link', { name: mine }).waitFor()
      const seen = JSON.stringify(await page.evaluate(() => (globalThis as any).liveLog))
      expect(seen).toContain(mine)
      expect(seen).not.toContain(later)
      expect(seen).not.toContain(theirs)
      expect(await page.getByText(theirs).count()).toBe(0)
      expect(await page.getByText(later).count()).toBe(0)

      const byUrl = await page.goto(`${s.url}/_sandbox/ui/charges/${theirs}`)
      expect(byUrl?.status()).toBe(404)
      await page.getByRole('alert').getByText('Charge not found').waitFor()

      // Admin-only controls are not shown, and refused when posted anyway.
      await page.goto(`${s.url}/_sandbox/ui`)
      expect(await page.getByRole('button', { name: '+1 h' }).count()).toBe(0)
      expect(await page.getByText('Loja Exemplo Ltda').count()).toBe(0)
      expect(await page.getByText('Reveal secret').count()).toBe(0)
      await page.evaluate(async (url) => {
        await fetch(url, {
          method: 'POST',
          body: new URLSearchParams({ seconds: '3600' }),
          redirect: 'manual',
        })
      }, `${s.url}/_sandbox/ui/clock/advance`)
      await page.reload()
      await page.getByRole('alert').getByText('This operation needs the admin token').waitFor()
      expect((await s.admin('GET', '/clock')).body.offset_seconds).toBe(0)
    })

    it('settles a pending transfer and shows its ledger entries', async () => {
      const r = await s.request('POST', '/api/v1/hub/transactions/out', {
        auth: AUTH.main,
        json: { amount: 777, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      })
      expect(r.body.status).toBe('pending')
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      await page.getByRole('link', { name: r.body.transaction_id }).click()
      await page.locator('#transfer .badge', { hasText: 'pending' }).waitFor()
      await page.getByRole('button', { name: 'Settle failed' }).click()
      await page.locator('#transfer .badge', { hasText: 'failed' }).waitFor()
      expect(await page.getByRole('button', { name: 'Settle failed' }).count()).toBe(0)
      // The debit and its refund.
      await page.locator('#ledger tbody tr').nth(1).waitFor()
      expect(await page.locator('#ledger tbody tr').count()).toBe(2)
      expect((await s.admin('GET', `/transfers/${r.body.transaction_id}`)).body.status).toBe(
        'failed',
      )
    })

    it("lists the contract's requests live, opens one, and shows the magic values and events", async () => {
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/requests`)
      await liveOpen(page)
      await s.request('GET', '/api/v1/user/company', { auth: AUTH.main })
      const row = page.locator('#requests summary', { hasText: 'GET /api/v1/user/company' })
      await row.waitFor()
      await row.click()
      // The Authorization header is journaled redacted, never in clear.
      const headers = await page.locator('#requests pre.body').first().textContent()
      expect(headers).toContain('authorization')
      expect(headers).not.toContain(AUTH.main.slice(6))

      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      await page
        .locator('section', { has: page.getByRole('heading', { name: 'Magic values' }) })
        .getByText('pending@pix.example')
        .waitFor()
      await page.goto(`${s.url}/_sandbox/ui/events`)
      await page.getByText('scenario.applied').first().waitFor()
    })

    it("shows a webhook delivery, then its attempt's status and exact headers, pushed without a reload or a poll", async () => {
      const received: { headers: IncomingHttpHeaders; body: string }[] = []
      // The receiver holds its answer until the test lets it go, so the attempt concludes while the page watches.
      let release!: () => void
      const released = new Promise<void>((r) => (release = r))
      const receiver = createServer((req, res) => {
        let body = ''
        req.on('data', (c) => (body += c))
        req.on('end', () => {
          received.push({ headers: req.headers, body })
          void released.then(() => res.writeHead(204).end())
        })
      })
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
      // Every timer the page's script starts, to prove none of them re-reads the page.
      await page.addInitScript(() => {
        const w = globalThis as any
        const start = w.setInterval.bind(w)
        w.intervals = []
        w.setInterval = (fn: unknown, ms?: number, ...rest: unknown[]) => (
          w.intervals.push(ms), start(fn, ms, ...rest)
        )
      })
      try {
        const port = (receiver.address() as AddressInfo).port
        expect(
          (
            await s.admin('POST', '/webhooks', {
              url: `http://127.0.0.1:${port}/hook`,
              events: ['charge.paid'],
            })
          ).status,
        ).toBe(201)
        await signInAsAdmin(page, s)
        await page.goto(`${s.url}/_sandbox/ui/webhooks`)
        await page.getByText('No deliveries yet').waitFor()
        await liveOpen(page)
        const id = await charge(AUTH.main, 1234)
        await s.admin('POST', `/charges/${id}/pay`)
        const deliveries = page.locator('#deliveries')
        await deliveries.locator('.badge', { hasText: 'pending' }).waitFor()
        await deliveries.getByText('none yet').waitFor()
        await eventually(() => received.length > 0, 'the receiver got no delivery', 10)

        release()
        await deliveries.locator('.badge', { hasText: 'delivered' }).waitFor()
        const attempt = deliveries.locator('details.attempt summary', { hasText: '204' })
        await attempt.waitFor()
        // Pushed by the stream: the page's only timer is its 1 s clock, so nothing polled for it.
        // (No wall-clock bound here: on a loaded machine it only measured the machine.)
        expect(await page.evaluate(() => (globalThis as any).intervals)).toEqual([1000])

        await attempt.click()
        const lines = (await deliveries
          .locator('details.attempt pre.headers')
          .textContent())!.split('\n')
        const shown = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
        )
        expect(shown).toEqual(setBySandbox(received[0]!.headers))
        expect(shown['webhook-signature']).toMatch(/^v1,/)

        await deliveries.locator('summary', { hasText: 'Body sent' }).click()
        const body = JSON.parse((await deliveries.locator('pre.body:not(.headers)').textContent())!)
        expect(body).toEqual(JSON.parse(received[0]!.body))
        expect(body.data.transaction_id).toBe(id)

        // A second delivery re-renders the card; the headers the reader opened stay open.
        await s.admin('POST', `/charges/${await charge(AUTH.main, 99)}/pay`)
        await deliveries.locator('.badge', { hasText: 'delivered' }).nth(1).waitFor()
        expect(await deliveries.locator('details.attempt[open]').count()).toBe(1)
        expect(
          await deliveries.locator('details.attempt[open] pre.headers').textContent(),
        ).toContain(String(received[0]!.headers['webhook-signature']))
      } finally {
        receiver.closeAllConnections()
        receiver.close()
      }
    })

    it('adds and removes a fault', async () => {
      await signInAsAdmin(page, s)
      await page.goto(`${s.url}/_sandbox/ui/faults`)
      await page.getByLabel('Operation').selectOption('charge')
      await page.getByRole('button', { name: 'Add fault' }).click()
      await page.getByRole('status').getByText('Fault added').waitFor()
      expect(
        (
          await s.request('POST', '/api/v1/hub/transactions/in', {
            auth: AUTH.main,
            json: { amount: 100 },
          })
        ).status,
      ).toBe(500)
      await page.getByRole('button', { name: 'Remove all faults' }).click()
      await page.getByRole('status').getByText('Faults removed').waitFor()
      expect(
        (
          await s.request('POST', '/api/v1/hub/transactions/in', {
            auth: AUTH.main,
            json: { amount: 100 },
          })
        ).status,
      ).toBe(200)
    })
  },
)
