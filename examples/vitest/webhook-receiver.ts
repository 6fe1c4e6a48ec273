// The app's webhook endpoint: verifies the Standard Webhooks signature with the subscription's
// secret, then records the event (a real app would mark the order paid, the payout failed...).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface PixEvent {
  type: string
  timestamp: string
  data: { transaction_id: string; amount: number }
}

export async function startWebhookReceiver(secret: string) {
  const webhook = new Webhook(secret)
  const events: PixEvent[] = []
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    try {
      events.push(webhook.verify(body, req.headers as Record<string, string>) as PixEvent)
      res.writeHead(204).end()
    } catch {
      res.writeHead(400).end('bad signature')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
