// --rate: the target never gets requests closer together than the rate allows.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { probe } from './helpers.js'

it('spaces the requests to the target by at least 1/rate seconds', async () => {
  const arrivals: number[] = []
  const server = createServer((_req, res) => {
    arrivals.push(Date.now())
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  try {
    const run = await probe(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, {
      rate: 25,
    })
    expect(run.code).toBe(0)
    expect(arrivals.length).toBe(run.json.exchanges.target.length)
    expect(arrivals.length).toBeGreaterThan(10)
    // Sent 40 ms apart at 25/s (arrivals can bunch by connection set-up, so send times are checked);
    // two milliseconds of slack for timer rounding.
    const sent: number[] = run.json.exchanges.target.map((e: { sent_at: number }) => e.sent_at)
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(38)
    // Everything answered 404 where the sandbox answers otherwise: reported, not thrown.
    expect(run.json.rows.find((r: { id: string }) => r.id === 'auth.no-header').verdict).toBe(
      'differ',
    )
  } finally {
    server.close()
  }
})
