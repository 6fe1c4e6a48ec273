// npm run screenshots: a PNG of every dashboard page, light and dark, 1280 and 390 px wide, in
// docs/images/ (ui-<page>-<light|dark>-<width>.png). Starts an in-memory sandbox on a fixed
// virtual clock, fills it through the contract and the control plane, and drives Debian's
// chromium (apt-get install -y chromium; CHROMIUM_PATH to use another).
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { createManualClock } from '../src/clock.js'
import { loadConfig } from '../src/config.js'
import { silentLog } from '../src/log.js'
import { startSandbox } from '../src/server.js'
import { CHROMIUM, launchChromium, NO_CHROMIUM } from '../test/ui/chromium.js'

const OUT = fileURLToPath(new URL('../docs/images/', import.meta.url))
if (!CHROMIUM) {
  console.error(`screenshots: ${NO_CHROMIUM}`)
  process.exit(1)
}

const config = {
  ...loadConfig({
    SCENARIOS_DIR: fileURLToPath(new URL('../scenarios', import.meta.url)),
    DATABASE: ':memory:',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SEED: 'screenshots',
  }),
}
const sandbox = await startSandbox(config, {
  log: silentLog,
  clock: createManualClock(Date.UTC(2026, 2, 1, 12, 0, 0) * 1000),
})
const call = async (
  method: string,
  path: string,
  body?: unknown,
  auth = `Bearer ${sandbox.adminToken}`,
) => {
  const r = await fetch(sandbox.url + path, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return r.json() as Promise<any>
}
const client = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`

// A receiver for the subscription: it takes charge.paid (204) and refuses transfer.failed (500),
// so the deliveries show both outcomes with the headers each attempt sent.
const receiver = createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => res.writeHead(body.includes('"charge.paid"') ? 204 : 500).end())
})
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))

// Some history: charges in every state, transfers, a subscription with deliveries, a fault.
await call('POST', '/_sandbox/webhooks', {
  url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`,
  events: ['charge.paid', 'transfer.failed'],
})
const charges = []
for (const [amount, description] of [
  [1000, 'Pedido 1001'],
  [4590, 'Pedido 1002'],
  [12990, 'Assinatura março'],
  [2500, 'Pedido 1003'],
] as const) {
  charges.push(await call('POST', '/api/v1/hub/transactions/in', { amount, description }, client))
}
await call('POST', `/_sandbox/charges/${charges[1].transaction_id}/pay`)
await call('POST', `/_sandbox/charges/${charges[2].transaction_id}/cancel`)
await call(
  'POST',
  '/api/v1/hub/transactions/out',
  { amount: 2500, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
  client,
)
const pending = await call(
  'POST',
  '/api/v1/hub/transactions/out',
  { amount: 777, pix_key: 'joao@example.com', pix_type: 'EMAIL' },
  client,
)
await call(
  'POST',
  '/api/v1/hub/transactions/out',
  { amount: 666, pix_key: '12345678909', pix_type: 'CPF' },
  client,
)
await call('POST', '/_sandbox/faults', { operation: 'transfer', status: 503, times: 3 })
await call('POST', '/_sandbox/outcomes', {
  status: 'pending',
  settle_after_seconds: 30,
  final_status: 'failed',
  match: { pix_key: 'joao@example.com' },
  times: 2,
})
await call('GET', '/api/v1/user/company', undefined, client)
// Readiness: a few behaviours met by mistakes a suite makes, so the page shows findings too.
await call(
  'GET',
  '/api/v1/user/company',
  undefined,
  `Basic ${Buffer.from('production-client:production-secret').toString('base64')}`,
)
await call('POST', '/api/v1/hub/transactions/in/', { amount: 1500 }, client)
await call('POST', '/api/v1/hub/transactions/in', { amount: 0 }, client)
// The worker sends on its own: wait until each delivery has its first attempt recorded.
for (const until = Date.now() + 10_000; ; ) {
  const { data } = await call('GET', '/_sandbox/webhooks/deliveries')
  if (data.every((d: { attempts: unknown[] }) => d.attempts.length > 0)) break
  if (Date.now() > until) throw new Error('screenshots: webhook attempts were not recorded')
  await new Promise((r) => setTimeout(r, 20))
}

const pages: [string, string][] = [
  ['sign-in', '/_sandbox/ui/sign-in'],
  ['overview', '/_sandbox/ui'],
  ['readiness', '/_sandbox/ui/readiness'],
  ['charges', '/_sandbox/ui/charges'],
  ['charge', `/_sandbox/ui/charges/${charges[0].transaction_id}`],
  ['charge-paid', `/_sandbox/ui/charges/${charges[1].transaction_id}`],
  ['transfers', '/_sandbox/ui/transfers'],
  ['transfer', `/_sandbox/ui/transfers/${pending.transaction_id}`],
  ['webhooks', '/_sandbox/ui/webhooks'],
  ['requests', '/_sandbox/ui/requests'],
  ['events', '/_sandbox/ui/events'],
  ['faults', '/_sandbox/ui/faults'],
]

mkdirSync(OUT, { recursive: true })
const browser = await launchChromium()
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({
        viewport: { width, height: width > 500 ? 800 : 844 },
        colorScheme: scheme,
      })
      const page = await context.newPage()
      await page.goto(`${sandbox.url}/_sandbox/ui/sign-in`)
      await page.getByLabel(/Admin token/).fill(sandbox.adminToken)
      await page.getByRole('button', { name: 'Sign in as admin' }).click()
      await page.getByRole('heading', { name: 'Overview' }).waitFor()
      for (const [name, path] of pages) {
        if (name === 'sign-in') await context.clearCookies()
        await page.goto(sandbox.url + path)
        // One attempt opened, to show the headers it sent.
        if (name === 'webhooks')
          await page
            .locator('details.attempt')
            .first()
            .evaluate((d) => ((d as any).open = true))
        const file = `${OUT}ui-${name}-${scheme}-${width}.png`
        // Long pages are cut at three screens: enough to judge, small enough to keep.
        const height = Math.min(
          await page.evaluate(
            () => (globalThis as any).document.documentElement.scrollHeight as number,
          ),
          width > 500 ? 2000 : 2400,
        )
        await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height } })
        if (name === 'sign-in') {
          await page.getByLabel(/Admin token/).fill(sandbox.adminToken)
          await page.getByRole('button', { name: 'Sign in as admin' }).click()
          await page.getByRole('heading', { name: 'Overview' }).waitFor()
        }
      }
      await context.close()
      console.log(`screenshots: ${scheme} ${width} px done`)
    }
  }
} finally {
  await browser.close()
  await sandbox.close()
  receiver.close()
}
console.log(`screenshots: written to ${OUT}`)
