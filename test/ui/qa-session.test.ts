// A QA person's session in a browser, without curl: a charge created and paid, a transfer that
// fails by a magic value chosen by name, an insufficient balance, a charge expired; each call in
// the Requests page as the same curl would be. And the layout they read it in, at 1280 and 390
// px: the header on one line, the navigation in two rows, every column of Transfers on a phone,
// buttons apart from what follows them.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { AUTH, type TestSandbox } from '../harness.js'
import { CHROMIUM, signInAsAdmin, signInAsCompany, SKIP_REASON, useBrowser } from './browser.js'

const PHONE = { width: 390, height: 844 }
const PAGES = [
  '',
  '/readiness',
  '/charges',
  '/transfers',
  '/webhooks',
  '/requests',
  '/events',
  '/faults',
]

describe.skipIf(!CHROMIUM)(`a QA session${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let s: TestSandbox
  let page: Page
  useBrowser((sandbox, p) => {
    s = sandbox
    page = p
  })

  const newCharge = async (amount: string, description: string) => {
    await page.goto(`${s.url}/_sandbox/ui/charges`)
    const form = page.locator('#new-charge')
    expect(await form.locator('select[name="as"]').inputValue()).toBe('sandbox-client')
    await form.getByLabel('Amount (R$)').fill(amount)
    await form.getByLabel('Description').fill(description)
    await form.getByRole('button', { name: 'Create charge' }).click()
    await page.getByRole('heading', { name: /^Charge / }).waitFor()
    await page.locator('#charge .badge', { hasText: 'pending' }).first().waitFor()
  }

  it('pays a charge, fails a transfer, meets an insufficient balance and expires a charge, all journaled', async () => {
    await signInAsAdmin(page, s)

    // A charge, paid.
    await newCharge('25,00', 'Pedido QA')
    await page.getByRole('status').getByText('Charge created: R$ 25,00, pending').waitFor()
    expect(await page.locator('.amount').textContent()).toBe('R$ 25,00')
    const paid = page.url().split('/').pop()!
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
    await page.locator('#charge .badge', { hasText: 'paid' }).first().waitFor()

    // A transfer that fails: the magic value chosen by name fills the key it names.
    await page.goto(`${s.url}/_sandbox/ui/transfers`)
    const send = page.locator('#send-transfer')
    const magic = send.locator('select[name="magic"]')
    const inactive = magic.locator('option', { hasText: 'Pix key not found or inactive' })
    await magic.selectOption((await inactive.getAttribute('value'))!)
    expect(await send.getByLabel('Key', { exact: true }).inputValue()).toBe('failed@pix.example')
    await send.getByLabel('Amount (R$)').fill('15,00')
    await send.getByRole('button', { name: 'Send transfer' }).click()
    await page.getByRole('heading', { name: /^Transfer / }).waitFor()
    await page.locator('#transfer .badge', { hasText: 'failed' }).waitFor()
    await page.locator('#transfer').getByText('Pix key not found or inactive').waitFor()

    // An insufficient balance, by the magic value that sends more than the balance: said in the form.
    await page.goto(`${s.url}/_sandbox/ui/transfers`)
    const overBalance = magic.locator('option', { hasText: '422 Insufficient balance' })
    await magic.selectOption((await overBalance.getAttribute('value'))!)
    expect(await send.getByLabel('Amount (R$)').inputValue()).toBe('9999999999,99')
    await send.getByRole('button', { name: 'Send transfer' }).click()
    await send
      .getByRole('alert')
      .getByText('The contract answered 422: Insufficient balance')
      .waitFor()
    await page.screenshot({ path: '/tmp/pix-sandbox-qa-insufficient.png', fullPage: true })

    // A charge, expired.
    await newCharge('5,00', 'Pedido que expira')
    await page.getByRole('button', { name: 'Expire' }).click()
    await page.locator('#charge').getByText('(expired)').waitFor()

    // Each call is in the Requests page, as the same curl's would be.
    await page.goto(`${s.url}/_sandbox/ui/requests`)
    const requests = await page.locator('#requests summary').allInnerTexts()
    expect(requests.filter((r) => r === 'POST /api/v1/hub/transactions/in')).toHaveLength(2)
    expect(requests.filter((r) => r === 'POST /api/v1/hub/transactions/out')).toHaveLength(2)
    expect(requests).toContain(`POST /_sandbox/charges/${paid}/pay`)
    expect(requests.filter((r) => /^POST \/_sandbox\/charges\/\w+\/expire$/.test(r))).toHaveLength(
      1,
    )
    const refused = page.locator('#requests tr', { hasText: 'POST /api/v1/hub/transactions/out' })
    expect(await refused.locator('td[data-label="Status"]').allInnerTexts()).toEqual(['422', '200'])
  })

  /** Whether the elements `selector` matches sit on one line: every one overlaps every other's height. */
  const oneLine = (selector: string) =>
    page.locator(selector).evaluateAll((els) => {
      const boxes = els.map((e) => e.getBoundingClientRect())
      return Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom))
    })
  /** The distinct tops of the elements `selector` matches: how many rows they take. */
  const rows = (selector: string) =>
    page
      .locator(selector)
      .evaluateAll((els) => [...new Set(els.map((e) => Math.round(e.getBoundingClientRect().top)))])

  it('keeps a company header on one line at 1280 px, and the navigation in two rows at 390 px on every page', async () => {
    // A company name as long as a real one, so the header has to make room for it.
    s.apply({
      companies: [
        {
          id: 'distribuidora',
          name: 'Distribuidora de Alimentos Exemplo do Sul Ltda',
          users: [
            {
              id: 'distribuidora-user',
              credentials: [{ client_id: 'distribuidora', client_secret: 'distribuidora-secret' }],
            },
          ],
        },
      ],
    })
    await signInAsCompany(page, s, 'distribuidora', 'distribuidora-secret')
    for (const path of PAGES) {
      await page.goto(`${s.url}/_sandbox/ui${path}`)
      expect(await oneLine('header > *'), `header of ${path || '/'} at 1280 px`).toBe(true)
    }
    await page.setViewportSize(PHONE)
    for (const path of PAGES) {
      await page.goto(`${s.url}/_sandbox/ui${path}`)
      expect(await rows('header nav a'), `navigation of ${path || '/'}`).toHaveLength(2)
      expect(
        await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth),
        `width of ${path || '/'}`,
      ).toBeLessThanOrEqual(PHONE.width)
    }
  })

  it('shows every column of Transfers on a phone, light and dark, and keeps Pay, Expire and Cancel apart from the next heading', async () => {
    await s.request('POST', '/api/v1/hub/transactions/out', {
      auth: AUTH.main,
      json: { amount: 2500, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    const charge = await s.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 1000 },
    })
    await signInAsAdmin(page, s)
    for (const [size, scheme] of [
      [{ width: 1280, height: 900 }, 'light'],
      [PHONE, 'dark'],
    ] as const) {
      await page.setViewportSize(size)
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto(`${s.url}/_sandbox/ui/transfers`)
      for (const label of ['Key', 'Created', 'Amount', 'Status']) {
        const cell = page.locator(`#transfers td[data-label="${label}"]`)
        expect(await cell.isVisible(), `${label} at ${size.width} px`).toBe(true)
        const box = (await cell.boundingBox())!
        expect(box.x + box.width).toBeLessThanOrEqual(size.width)
      }
      expect(await page.locator('#transfers td[data-label="Key"]').innerText()).toContain(
        'maria@example.com',
      )
      // The new forms follow the scheme: a dark card on a phone set to dark.
      const card = await page
        .locator('#send-transfer')
        .evaluate((e) => (globalThis as any).getComputedStyle(e).backgroundColor)
      expect(card).toBe(scheme === 'dark' ? 'rgb(23, 27, 33)' : 'rgb(255, 255, 255)')
      await page.goto(`${s.url}/_sandbox/ui/charges/${charge.body.transaction_id}`)
      const buttons = (await page.locator('#charge-actions').boundingBox())!
      const heading = (await page.getByRole('heading', { name: 'Copy and paste' }).boundingBox())!
      expect(
        heading.y - (buttons.y + buttons.height),
        `gap at ${size.width} px`,
      ).toBeGreaterThanOrEqual(16)
    }
  })

  it('labels the chaos form and keeps it apart from Delete', async () => {
    await s.admin('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' })
    await signInAsAdmin(page, s)
    await page.goto(`${s.url}/_sandbox/ui/webhooks`)
    const chaos = page.getByRole('group', { name: 'Chaos: what happens to its next deliveries' })
    await chaos.getByLabel('Duplicate (chance, 0 to 1)').fill('1')
    const del = (await page
      .getByRole('button', { name: 'Delete this subscription' })
      .boundingBox())!
    const box = (await chaos.boundingBox())!
    expect(del.y).toBeGreaterThanOrEqual(box.y + box.height + 16)
    await chaos.getByRole('button', { name: 'Set chaos' }).click()
    await page.locator('#subscriptions').getByText('sends every delivery twice').waitFor()
  })
})
