// SIGTERM under keep-alive load, against the built server: every request is answered (200, or 503
// with Retry-After on a connection opened while the server stops) or refused (a new connection
// refused: the client knows nothing was sent), none reset. The drain closed connections quiet for
// 20 ms, shorter than a loaded client's gap between requests: 19-52 of 64 clients' requests were
// reset per SIGTERM; and it closed its listener at once, resetting the new connections still in
// the accept queue: 19 and 43 in 2 of 4 rounds of clients that never pause.
import http from 'node:http'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { AUTH, startServer, tempDir } from './server.js'

const tmp = tempDir('pix-sigterm-')
afterAll(() => tmp.remove())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('SIGTERM under keep-alive load', () => {
  it.each([
    [1, 'half pausing'],
    [2, 'half pausing'],
    [3, 'none pausing'],
    [4, 'none pausing'],
  ])('answers or refuses every request, round %i, %s', async (round, pauses) => {
    const server = await startServer(join(tmp.dir, `sigterm-${round}.db`))
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
    const body = JSON.stringify({ amount: 100 })
    const outcomes = new Map<string, number>()
    let stop = false
    const one = () =>
      new Promise<string>((resolve) => {
        const req = http.request(`${server.url}/api/v1/hub/transactions/in`, {
          method: 'POST',
          agent,
          headers: {
            authorization: AUTH,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        })
        req.on('response', (res) => {
          const status = String(res.statusCode)
          res
            .resume()
            .on('end', () =>
              resolve(
                status === '503' && res.headers['retry-after'] !== '1'
                  ? '503 without Retry-After'
                  : status,
              ),
            )
        })
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
        req.setTimeout(15_000, () => req.destroy(new Error('no answer in 15 s')))
        req.end(body)
      })
    // The clients send again as soon as they have their answer; or half of them do a little work
    // and pause up to 100 ms first, as a test suite between its calls.
    const clients = Array.from({ length: 64 }, async (_, i) => {
      while (!stop) {
        const outcome = await one()
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
        if (outcome === 'ECONNREFUSED') await sleep(5)
        else if (pauses === 'half pausing' && i % 2) {
          const busy = performance.now()
          while (performance.now() - busy < 2);
          await sleep(Math.random() * 100)
        }
      }
    })
    await sleep(1500)
    const signalled = performance.now()
    const code = await server.stop('SIGTERM')
    const stoppedMs = performance.now() - signalled
    await sleep(200)
    stop = true
    await Promise.all(clients)
    agent.destroy()
    console.log(
      `SIGTERM round ${round}: ${JSON.stringify(Object.fromEntries(outcomes))}, exited ${code} after ${Math.round(stoppedMs)} ms`,
    )
    expect(code).toBe(0)
    expect(outcomes.get('200')).toBeGreaterThan(100)
    expect([...outcomes.keys()].filter((o) => !['200', '503', 'ECONNREFUSED'].includes(o))).toEqual(
      [],
    )
    expect(outcomes.get('ECONNREFUSED')).toBeGreaterThan(0)
  })
})
