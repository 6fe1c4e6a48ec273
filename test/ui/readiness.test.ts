// The dashboard's Readiness page in a browser: the checklist and the findings update live as the
// integration calls; each set-up button asks the control plane for what it names (a fault, an
// outcome, chaos, the receiver check, the clock) and the behaviour is then met; a company sees
// its own report and no clock button; nothing overflows a phone's width.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { AUTH, type TestSandbox } from '../harness.js'
import { startHookReceiver } from '../readiness/receivers.js'
import {
  CHROMIUM,
  liveOpen,
  signInAsAdmin,
  signInAsCompany,
  SKIP_REASON,
  useBrowser,
} from './browser.js'

describe.skipIf(!CHROMIUM)(`the Readiness page${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let s: TestSandbox
  let page: Page
  useBrowser((sandbox, p) => {
    s = sandbox
    page = p
  })

  const row = (id: string) => page.locator(`#readiness-checklist tr[data-id="${id}"]`)
  const metBadge = (id: string) => row(id).locator('.badge', { hasText: /^met$/ })
  const charge = (auth = AUTH.main) =>
    s.request('POST', '/api/v1/hub/transactions/in', { auth, json: { amount: 1000 } })
  const open = async () => {
    await signInAsAdmin(page, s)
    await page.goto(`${s.url}/_sandbox/ui/readiness`)
    await liveOpen(page)
  }

  it('shows the checklist and the findings live, with example and advice', async () => {
    await open()
    await page.getByText('0 of 32').waitFor()
    expect(await row('charge.created').locator('td[data-label="How"]').textContent()).toContain(
      'as sandbox-client:sandbox-secret',
    )
    await page.locator('#readiness-findings').getByText('None: nothing was seen').waitFor()
    await charge()
    await metBadge('charge.created').waitFor()
    await s.request('GET', '/api/v1/user/company', { auth: AUTH.production })
    const finding = page.locator('#readiness-findings li[data-id="production_credentials"]')
    await finding.waitFor()
    expect(await finding.locator('.badge').textContent()).toBe('error')
    expect(await finding.locator('.seen').textContent()).toMatch(
      /GET \/api\/v1\/user\/company at .*: production keys/,
    )
    expect(await finding.locator('.advice').textContent()).toMatch(
      /^Production keys must never leave production/,
    )
    await page.getByText(/2 of 32/).waitFor()
  })

  it('each fault and outcome button sets its behaviour up, for the company the admin looks at', async () => {
    await open()
    await page.locator('select[name="company_id"]').selectOption('loja-exemplo')
    await page.getByRole('button', { name: 'Filter' }).click()
    await row('charge.unsupported')
      .getByRole('button', { name: 'Inject a 501 into the next charge' })
      .click()
    await page.getByRole('status').getByText('Inject a 501 into the next charge: done.').waitFor()
    expect(page.url()).toContain('/readiness?company_id=loja-exemplo')
    const faults = (await s.admin('GET', '/faults')).body.data
    expect(faults).toEqual([
      expect.objectContaining({
        operation: 'charge',
        status: 501,
        times: 1,
        company_id: 'loja-exemplo',
      }),
    ])
    await liveOpen(page)
    expect((await charge()).status).toBe(501)
    await metBadge('charge.unsupported').waitFor()
    await row('transfer.pending')
      .getByRole('button', { name: 'Make the next transfer pending' })
      .click()
    await page.getByRole('status').waitFor()
    await liveOpen(page)
    const t = await s.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    expect(t.body.status).toBe('pending')
    await metBadge('transfer.pending').waitFor()
  })

  it('the webhook buttons act on a subscription: chaos, and the receiver check', async () => {
    const rx = await startHookReceiver('correct')
    try {
      const hook = (await s.admin('POST', '/webhooks', { url: rx.url })).body
      rx.secret = hook.secret
      await open()
      await row('webhook.duplicate')
        .getByRole('button', { name: 'Duplicate every delivery (chaos)' })
        .click()
      await page
        .getByRole('status')
        .getByText(/Duplicate every delivery \(chaos\): done\./)
        .waitFor()
      expect((await s.admin('GET', `/webhooks/${hook.id}`)).body.chaos).toEqual({ duplicate: 1 })
      await row('webhook.bad_signature_rejected')
        .getByRole('button', { name: 'Check the receiver' })
        .click()
      await page.getByRole('status').getByText('Receiver check: 5 of 5 checks passed').waitFor()
      await metBadge('webhook.bad_signature_rejected').waitFor()
    } finally {
      await rx.close()
    }
  })

  it('without a subscription, a webhook set-up points to the Webhooks page; the clock button moves the clock', async () => {
    await open()
    await row('webhook.duplicate')
      .getByRole('link', { name: 'Subscribe a receiver first' })
      .waitFor()
    const before = (await s.admin('GET', '/clock')).body.now
    await row('webhook.charge.cancelled')
      .getByRole('button', { name: 'Move the clock 1 h (pending charges expire)' })
      .click()
    await page.getByRole('status').waitFor()
    expect(Date.parse((await s.admin('GET', '/clock')).body.now) - Date.parse(before)).toBe(
      3600_000,
    )
  })

  it('a company sees its own report, and no clock button', async () => {
    await charge(AUTH.inactive)
    await charge()
    await signInAsCompany(page, s, 'inactive', 'inactive-secret')
    await page.goto(`${s.url}/_sandbox/ui/readiness`)
    await metBadge('charge.forbidden').waitFor()
    expect(await metBadge('charge.created').count()).toBe(0)
    expect(await page.locator('select[name="company_id"]').count()).toBe(0)
    expect(await page.getByRole('button', { name: /Move the clock/ }).count()).toBe(0)
    expect(
      await page.getByRole('button', { name: 'Inject a 500 into the next charge' }).count(),
    ).toBe(1)
  })

  it('fits a phone: nothing wider than 390 px', async () => {
    await s.request('GET', '/api/v1/user/company', { auth: AUTH.production })
    await page.setViewportSize({ width: 390, height: 844 })
    await open()
    expect(
      await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390)
    const offRight = await page
      .locator('#readiness-checklist td, #readiness-findings li')
      .evaluateAll(
        (els) =>
          els.filter((e) => e.getBoundingClientRect().right > (globalThis as any).innerWidth + 0.5)
            .length,
      )
    expect(offRight).toBe(0)
  })
})
