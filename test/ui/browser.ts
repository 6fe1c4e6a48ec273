// Browser tests drive Debian's chromium through playwright-core (browsers are never downloaded).
// Without chromium they are skipped with a message saying how to get it.
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { HANG_MS } from '../hang.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { CHROMIUM, launchChromium, NO_CHROMIUM } from './chromium.js'

export { CHROMIUM }
export const SKIP_REASON = CHROMIUM ? '' : `browser tests skipped: ${NO_CHROMIUM}`
if (!CHROMIUM) console.warn(SKIP_REASON)

export const launch = launchChromium

export async function newPage(
  browser: Browser,
  opts: { width?: number; height?: number; dark?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    colorScheme: opts.dark ? 'dark' : 'light',
  })
  // Playwright's 30 s for a wait or a page load is an idle machine's: a wait here is for an event,
  // bounded only against a hang (test/hang.ts).
  context.setDefaultTimeout(HANG_MS)
  return context.newPage()
}

export async function signInAsAdmin(page: Page, s: TestSandbox): Promise<void> {
  await page.goto(`${s.url}/_sandbox/ui`)
  await page.getByLabel(/Admin token/).fill(s.adminToken)
  await page.getByRole('button', { name: 'Sign in as admin' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
}

export async function signInAsCompany(
  page: Page,
  s: TestSandbox,
  clientId: string,
  secret: string,
): Promise<void> {
  await page.goto(`${s.url}/_sandbox/ui/sign-in`)
  await page.getByLabel('client_id').fill(clientId)
  await page.getByLabel('client_secret').fill(secret)
  await page.getByRole('button', { name: 'Sign in as this company' }).click()
  await page.getByRole('heading', { name: 'Overview' }).waitFor()
}

/** Waits until the page's live stream is connected (so changes made next are not missed). */
export const liveOpen = (page: Page) => page.locator('body[data-live-open="true"]').waitFor()

/** One browser per test file; a fresh sandbox and page per test, handed to `use`. */
export function useBrowser(use: (s: TestSandbox, page: Page) => void): void {
  let browser: Browser | undefined
  let s: TestSandbox | undefined
  let page: Page | undefined
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })
  beforeEach(async () => {
    s = await startTestSandbox()
    page = await newPage(browser!)
    use(s, page)
  })
  afterEach(async () => {
    await page?.context().close()
    await s?.close()
  })
}
