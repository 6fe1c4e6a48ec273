// /docs in a browser: "Try it out" on the contract's two POSTs fills in the documented example,
// and that body, executed from the page with the default credentials, is answered 200.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { TestSandbox } from '../harness.js'
import { CHROMIUM, SKIP_REASON, useBrowser } from './browser.js'

describe.skipIf(!CHROMIUM)(`/docs "Try it out"${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let s: TestSandbox
  let page: Page
  useBrowser((sandbox, p) => {
    s = sandbox
    page = p
  })

  it.each([
    ['/hub/transactions/in', { amount: 1000, description: 'Pedido 1234' }],
    ['/hub/transactions/out', { amount: 2500, pix_key: 'maria@example.com', pix_type: 'EMAIL', description: 'Pagamento fornecedor' }],
  ])('POST %s starts from a body the contract accepts', async (path, example) => {
    await page.goto(`${s.url}/docs`)
    await page.getByRole('button', { name: 'Authorize' }).first().click()
    const dialog = page.locator('.dialog-ux')
    await dialog.locator('input[type=text]').first().fill('sandbox-client')
    await dialog.locator('input[type=password]').first().fill('sandbox-secret')
    await dialog.locator('button', { hasText: 'Authorize' }).first().click()
    await dialog.locator('button', { hasText: 'Close' }).first().click()

    const op = page.locator('.opblock-post').filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first()
    await op.locator('.opblock-summary').click()
    await op.getByRole('button', { name: 'Try it out' }).click()
    const body = op.locator('textarea.body-param__text')
    expect(JSON.parse(await body.inputValue())).toEqual(example)

    await op.getByRole('button', { name: 'Execute' }).click()
    const status = op.locator('.live-responses-table tbody .response-col_status').first()
    await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 10_000 }).toBe('200')
  })
})
