// Overload: far more connections than the server can serve. It keeps answering health checks,
// never crashes, and is itself again as soon as the load stops.
import { join } from 'node:path'
import autocannon from 'autocannon'
import { afterAll, describe, expect, it } from 'vitest'
import { AUTH, call, startServer, tempDir } from './server.js'

const tmp = tempDir('pix-overload-')
afterAll(() => tmp.remove())

describe('overload', () => {
  it('answers health under 600 connections and recovers at once', async () => {
    const server = await startServer(join(tmp.dir, 'overload.db'))
    try {
      const health: { ok: boolean; ms: number }[] = []
      let loading = true
      const probe = (async () => {
        while (loading) {
          const t = performance.now()
          try {
            const res = await fetch(server.url + '/_sandbox/health', {
              signal: AbortSignal.timeout(5000),
            })
            health.push({ ok: res.status === 200, ms: performance.now() - t })
          } catch {
            health.push({ ok: false, ms: performance.now() - t })
          }
          await new Promise((r) => setTimeout(r, 250))
        }
      })()
      const load = await autocannon({
        url: server.url + '/api/v1/hub/transactions/in',
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: '{"amount":1000}',
        connections: 600,
        duration: 10,
        timeout: 20,
      })
      loading = false
      await probe
      console.log(
        `overload: ${Math.round(load.requests.average)} req/s, p99 ${load.latency.p99} ms, health checks ${health.length}, slowest ${Math.round(Math.max(...health.map((h) => h.ms)))} ms`,
      )
      expect(server.child.exitCode).toBeNull()
      expect(health.length).toBeGreaterThan(5)
      expect(health.every((h) => h.ok)).toBe(true)
      expect(load.errors).toBe(0)

      const t = performance.now()
      expect((await fetch(server.url + '/_sandbox/health')).status).toBe(200)
      expect(performance.now() - t).toBeLessThan(200)
      expect(
        (await call(server.url, 'POST', '/api/v1/hub/transactions/in', { amount: 100 })).status,
      ).toBe(200)
    } finally {
      await server.stop()
    }
  })
})
