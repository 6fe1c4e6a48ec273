// /docs in a browser: "Try it out" on the contract's two POSTs fills in the documented example,
// and that body, executed from the page with the default credentials, is answered 200; every
// response shows its documented example (an error its own detail), not one made up from types.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { BALANCE_EXAMPLE } from '../../src/http/sandbox/records/tenant.js'
import { HANG_MS } from '../hang.js'
import type { TestSandbox } from '../harness.js'
import { CHROMIUM, SKIP_REASON, useBrowser } from './browser.js'

describe.skipIf(!CHROMIUM)(`/docs "Try it out"${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`, () => {
  let s: TestSandbox
  let page: Page
  /** What the page's Content-Security-Policy refused: it must not stop the page working. */
  let refused: string[]
  useBrowser((sandbox, p) => {
    s = sandbox
    page = p
    refused = []
    page.on(
      'console',
      (m) => void (/Content Security Policy/i.test(m.text()) && refused.push(m.text())),
    )
  })

  it.each([
    ['/hub/transactions/in', { amount: 1000, description: 'Pedido 1234' }],
    [
      '/hub/transactions/out',
      {
        amount: 2500,
        pix_key: 'maria@example.com',
        pix_type: 'EMAIL',
        description: 'Pagamento fornecedor',
      },
    ],
  ])('POST %s starts from a body the contract accepts', async (path, example) => {
    await page.goto(`${s.url}/docs`)
    await page.getByRole('button', { name: 'Authorize' }).first().click()
    const dialog = page.locator('.dialog-ux')
    await dialog.locator('input[type=text]').first().fill('sandbox-client')
    await dialog.locator('input[type=password]').first().fill('sandbox-secret')
    await dialog.locator('button', { hasText: 'Authorize' }).first().click()
    await dialog.locator('button', { hasText: 'Close' }).first().click()

    const op = page
      .locator('.opblock-post')
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first()
    await op.locator('.opblock-summary').click()
    await op.getByRole('button', { name: 'Try it out' }).click()
    const body = op.locator('textarea.body-param__text')
    expect(JSON.parse(await body.inputValue())).toEqual(example)

    await op.getByRole('button', { name: 'Execute' }).click()
    const status = op.locator('.live-responses-table tbody .response-col_status').first()
    await expect
      .poll(async () => (await status.textContent())?.trim(), { timeout: HANG_MS })
      .toBe('200')
    // The credentials typed in stay in the page: nothing a later visitor of this browser can read.
    expect(
      await page.evaluate(() =>
        JSON.stringify({
          ...(globalThis as any).localStorage,
          ...(globalThis as any).sessionStorage,
        }),
      ),
    ).not.toContain('sandbox-secret')
    expect(refused).toEqual([])
  })

  /** Opens one operation; `shown(status)` is the example Swagger UI shows under that status. */
  const open = async (method: string, path: string) => {
    const op = page
      .locator(`.opblock-${method}`)
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first()
    await op.locator('.opblock-summary').click()
    const row = (status: number) => op.locator(`tr.response[data-code="${status}"]`)
    return {
      row,
      shown: async (status: number) =>
        JSON.parse((await row(status).locator('pre.example').first().textContent()) ?? ''),
    }
  }

  it('shows under each contract error the detail the sandbox answers for it', async () => {
    await page.goto(`${s.url}/docs`)
    const charge = await open('post', '/hub/transactions/in')
    expect(await charge.shown(403)).toEqual({ detail: 'API access is not active for this company' })
    await charge
      .row(403)
      .locator('select.examples-select-element')
      .selectOption('not_enough_permissions')
    await expect
      .poll(() => charge.shown(403), { timeout: HANG_MS })
      .toEqual({ detail: 'Not enough permissions' })
    expect(await charge.shown(501)).toEqual({ detail: 'Provider does not support this operation' })
    await charge.row(403).scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/pix-sandbox-docs-contract-403.png' })
  })

  it('shows a control-plane answer as the sandbox gives it, not "string" and 0', async () => {
    await page.goto(
      `${s.url}/docs?urls.primaryName=${encodeURIComponent('Control plane (/_sandbox)')}`,
    )
    const balance = await open('get', '/users/{user_id}/balance')
    const shown = await balance.shown(200)
    // The documented example is a real answer (test/http/examples-story.test.ts), shown as it is.
    expect(shown).toEqual(BALANCE_EXAMPLE)
    await balance.row(200).scrollIntoViewIfNeeded()
    await page.screenshot({ path: '/tmp/pix-sandbox-docs-control-balance.png' })
  })
})
