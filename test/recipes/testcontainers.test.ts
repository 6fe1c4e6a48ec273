// examples/testcontainers needs a container engine, which CI does not have: it runs here only when
// one answers (DOCKER_HOST, or the default socket), and the log says when it was skipped.
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { exampleDir, installExample, run } from './example-project.js'

const EXAMPLE = exampleDir('testcontainers')

/** Docker's `GET /_ping` over DOCKER_HOST (unix:// or tcp://) or /var/run/docker.sock. */
function engineAnswers(): Promise<boolean> {
  const host = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock'
  const target = host.startsWith('unix://')
    ? { socketPath: host.slice('unix://'.length) }
    : {
        host: new URL(host.replace(/^tcp:/, 'http:')).hostname,
        port: Number(new URL(host.replace(/^tcp:/, 'http:')).port || 2375),
      }
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', timeout: 2000 }, (res) => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on('error', () => resolve(false))
    req.on('timeout', () => req.destroy())
    req.end()
  })
}

const engine = await engineAnswers()
if (!engine)
  console.info(
    'examples/testcontainers: skipped, no container engine answers (DOCKER_HOST or /var/run/docker.sock)',
  )

describe('examples/testcontainers', () => {
  it.skipIf(!engine)(
    'passes against the image built from the Dockerfile',
    async (ctx) => {
      await installExample(EXAMPLE)
      const r = await run(`${EXAMPLE}node_modules/.bin/vitest`, ['run'], EXAMPLE)
      console.info(r.output)
      expect(r.code, r.output).toBe(0)
      // An engine can answer /_ping and still be unusable by Testcontainers (one started without its
      // bridge network, say): the example then skips itself and says why; so does this test.
      const skipped = /examples\/testcontainers: skipped, .*/.exec(r.output)
      if (skipped) return ctx.skip(skipped[0])
      expect(r.output).toMatch(/3 passed/)
    },
    20 * 60_000,
  )
})
