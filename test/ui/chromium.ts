// Debian's chromium, found and launched the one way the browser tests and `npm run screenshots`
// share (playwright-core; browsers are never downloaded). No vitest here: the script imports it.
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { HANG_MS } from '../hang.js'

/** The chromium to drive: CHROMIUM_PATH, else Debian's; undefined when there is none. */
export const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
]
  .filter((p): p is string => !!p)
  .find((p) => existsSync(p))

/** How to get one, for whoever found none. */
export const NO_CHROMIUM = 'no chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)'

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM!,
    // Not Playwright's 30 s: a start on a loaded machine is slow, not hung (test/hang.ts).
    timeout: HANG_MS,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
