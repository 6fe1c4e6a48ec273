// One sandbox for the file, started in this process; a fresh company (tenant) per test, so tests
// never see each other's charges, balances or webhooks and need no reset between them.
import { randomBytes } from 'node:crypto'
import { startSandbox, type Sandbox } from 'pix-sandbox'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PixError, pixClient } from './pix-client.js'
import { startWebhookReceiver } from './webhook-receiver.js'

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}` // the app's config in real life

let sandbox: Sandbox
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
beforeAll(async () => {
  sandbox = await startSandbox()
  receiver = await startWebhookReceiver(WEBHOOK_SECRET)
})
afterAll(async () => {
  await receiver?.close()
  await sandbox?.close()
})

/** A new company with its own balance, the app's client on its credentials, webhooks to the app. */
async function shop(balance = 50_000) {
  const tenant = await sandbox.tenant({ balance })
  const { clientId, clientSecret } = tenant.credentials
  await tenant.control.webhooks.subscribe(receiver.url, undefined, { secret: WEBHOOK_SECRET }) // every event
  return { tenant, pix: pixClient(tenant.baseUrl, clientId, clientSecret) }
}

it('creates a charge; when the payer pays it, the app receives charge.paid', async () => {
  const { tenant, pix } = await shop()
  const charge = await pix.createCharge(1000, 'Pedido 1234')
  expect(charge).toMatchObject({ status: 'pending', qr_code: expect.stringMatching(/^000201/) })

  await tenant.control.charges.pay(charge.transaction_id) // what the payer's bank app would do
  await tenant.control.webhooks.waitForDelivery({
    event: 'charge.paid',
    transaction_id: charge.transaction_id,
  })
  expect(await tenant.control.balance()).toBe(50_000 + 1000)
  expect(receiver.events).toContainEqual({
    type: 'charge.paid',
    timestamp: expect.any(String),
    data: expect.objectContaining({ transaction_id: charge.transaction_id, amount: 1000 }),
  })
})

it('sends a transfer that stays pending; when it fails, the app receives transfer.failed', async () => {
  const { tenant, pix } = await shop()
  const transfer = await pix.sendTransfer(2500, 'pending@pix.example', 'EMAIL') // a magic key: pending
  expect(transfer.status).toBe('pending')

  await tenant.control.transfers.settle(transfer.transaction_id, 'failed')
  await tenant.control.webhooks.waitForDelivery({
    event: 'transfer.failed',
    transaction_id: transfer.transaction_id,
  })
  expect(receiver.events.map((e) => [e.type, e.data.transaction_id])).toContainEqual([
    'transfer.failed',
    transfer.transaction_id,
  ])
})

it('refuses a transfer above the balance, as the real API does', async () => {
  const { pix } = await shop(1000)
  const refused = await pix
    .sendTransfer(1001, 'maria@example.com', 'EMAIL')
    .catch((e: unknown) => e)
  expect(refused).toBeInstanceOf(PixError)
  expect(refused).toMatchObject({ status: 422, detail: 'Insufficient balance' })
})
