// Soak: minutes at half the measured capacity. Memory holds flat (RSS at the end within 10% of
// RSS after the first minute) and no handles leak.
import { join } from 'node:path'
import autocannon from 'autocannon'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryOf, openHandles } from '../../bench/processes.js'
import { AUTH, startServer, tempDir } from './server.js'

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 180)
const tmp = tempDir('pix-soak-')
afterAll(() => tmp.remove())

const headers = { authorization: AUTH, 'content-type': 'application/json' }
const MIX = [
  {
    method: 'POST' as const,
    path: '/api/v1/hub/transactions/in',
    headers,
    body: '{"amount":1000,"description":"soak"}',
  },
  {
    method: 'POST' as const,
    path: '/api/v1/hub/transactions/out',
    headers,
    body: '{"amount":1,"pix_key":"maria@example.com","pix_type":"EMAIL"}',
  },
  { method: 'GET' as const, path: '/api/v1/user/company', headers: { authorization: AUTH } },
]

describe(`soak for ${SOAK_SECONDS} s at half capacity`, () => {
  it('keeps memory flat and leaks no handles', async () => {
    const server = await startServer(join(tmp.dir, 'soak.db'))
    try {
      const pid = server.child.pid!
      const capacity = await autocannon({
        url: server.url,
        requests: MIX,
        connections: 32,
        duration: 3,
      })
      const rate = Math.max(50, Math.floor(capacity.requests.average / 2))
      const samples: { t: number; rss: number; fds: number }[] = []
      const started = Date.now()
      const sampler = setInterval(
        () =>
          samples.push({
            t: (Date.now() - started) / 1000,
            rss: memoryOf(pid).rss,
            fds: openHandles(pid),
          }),
        2000,
      )
      const soak = await autocannon({
        url: server.url,
        requests: MIX,
        connections: 16,
        overallRate: rate,
        duration: SOAK_SECONDS,
      })
      clearInterval(sampler)
      const mark = Math.min(60, SOAK_SECONDS / 3)
      const afterFirst = samples.find((s) => s.t >= mark)!
      const end = samples[samples.length - 1]!
      const mb = (b: number) => Math.round(b / 1024 / 1024)
      console.log(
        `soak: ${rate} req/s (capacity ${Math.round(capacity.requests.average)}), ${soak.requests.total} requests, ` +
          `RSS ${mb(afterFirst.rss)} MB at ${Math.round(afterFirst.t)} s -> ${mb(end.rss)} MB at ${Math.round(end.t)} s, fds ${afterFirst.fds} -> ${end.fds}`,
      )
      expect(soak.errors + soak.timeouts).toBe(0)
      expect(soak.non2xx).toBe(0)
      expect(end.rss).toBeLessThanOrEqual(afterFirst.rss * 1.1)
      expect(end.fds).toBeLessThanOrEqual(afterFirst.fds + 4)
      expect(server.child.exitCode).toBeNull()
    } finally {
      await server.stop()
    }
  })
})
