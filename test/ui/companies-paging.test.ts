// The overview lists companies a page at a time: 20,000 tenants made one page of 660 KB.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { TestSandbox } from '../harness.js'
import { CHROMIUM, signInAsAdmin, SKIP_REASON, useBrowser } from './browser.js'

describe.skipIf(!CHROMIUM)(
  `the overview's companies${SKIP_REASON ? ` (${SKIP_REASON})` : ''}`,
  () => {
    let s: TestSandbox
    let page: Page
    useBrowser((sandbox, p) => {
      s = sandbox
      page = p
    })

    const shown = () =>
      page
        .locator('#companies tr[data-company]')
        .evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('data-company')!))])

    it('come 50 a page, oldest first (then by id), with links to the next page and back to the first; the charges filter takes an id past 100', async () => {
      const made: string[] = []
      for (let i = 0; i < 118; i++)
        made.push(
          (await s.admin('POST', '/companies', { name: `Tenant ${String(i).padStart(3, '0')}` }))
            .body.company_id,
        )
      const all = ['loja-exemplo', 'loja-inativa', ...made]
      await signInAsAdmin(page, s)
      await page.getByRole('heading', { name: 'Companies (120 in all, 50 a page)' }).waitFor()

      const seen: string[] = []
      for (const expected of [50, 50, 20]) {
        const ids = await shown()
        expect(ids).toHaveLength(expected)
        seen.push(...ids)
        if (expected === 50) {
          expect(Buffer.byteLength(await page.content())).toBeLessThan(120_000)
          await page.getByRole('link', { name: 'More companies →' }).click()
          await page.getByRole('link', { name: 'First companies' }).waitFor()
        }
      }
      // Every company once (the test's clock stands still: one instant, so in id order).
      expect([...seen].sort()).toEqual([...all].sort())
      await page.screenshot({ path: '/tmp/pix-sandbox-companies-last-page.png', fullPage: true })
      expect(await page.getByRole('link', { name: 'More companies →' }).count()).toBe(0)
      await page.getByRole('link', { name: 'First companies' }).click()
      expect(await shown()).toEqual(seen.slice(0, 50))

      // With more than 100 companies the charges page filters by a typed id, not a list of all.
      await page.goto(`${s.url}/_sandbox/ui/charges`)
      await page.getByLabel('Company (id)').fill('loja-exemplo')
      expect(await page.locator('select[name="company_id"]').count()).toBe(0)
    })
  },
)
