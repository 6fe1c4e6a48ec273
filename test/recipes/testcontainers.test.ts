// examples/testcontainers needs a container engine, which CI does not have: it runs here only when
// one answers (DOCKER_HOST, or the default socket), and the log says when it was skipped. What its
// README asks of a team outside the clone runs without one: the folder and examples/vitest's
// pix-client.ts copied into an empty folder, the import fixed; there, with no engine it skips and
// says why, and with PIX_SANDBOX_URL its tests pass against a sandbox already running.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestSandbox } from '../harness.js'
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

describe('examples/testcontainers copied into a repository of its own, as its README says', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-testcontainers-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** The copy: the folder (its installed dependencies shared) and pix-client.ts, the import fixed. */
  async function copy(): Promise<string> {
    await installExample(EXAMPLE)
    const project = join(dir, 'repo')
    cpSync(EXAMPLE, project, { recursive: true, filter: (f) => !f.includes('node_modules') })
    symlinkSync(join(EXAMPLE, 'node_modules'), join(project, 'node_modules'), 'dir')
    cpSync(join(EXAMPLE, '../vitest/pix-client.ts'), join(project, 'pix-client.ts'))
    const test = join(project, 'sandbox.test.ts')
    const source = readFileSync(test, 'utf8')
    expect(source).toContain("from '../vitest/pix-client.js'")
    writeFileSync(test, source.replace("'../vitest/pix-client.js'", "'./pix-client.js'"))
    return project
  }

  it(
    'passes against a sandbox already running (PIX_SANDBOX_URL, SANDBOX_ADMIN_TOKEN); without either, skips and says why when no engine answers',
    async () => {
      const project = await copy()
      const adminToken = 'sandbox-admin-token-0001'
      const sandbox = await startTestSandbox({ adminToken })
      try {
        const given = await run(`${project}/node_modules/.bin/vitest`, ['run'], project, {
          PIX_SANDBOX_URL: sandbox.url,
          SANDBOX_ADMIN_TOKEN: adminToken,
        })
        expect(given.code, given.output).toBe(0)
        expect(given.output).toMatch(/3 passed/)
      } finally {
        await sandbox.close()
      }
      if (engine) return
      const { PIX_SANDBOX_URL: _u, PIX_SANDBOX_IMAGE: _i, ...env } = process.env
      const none = await run(
        `${project}/node_modules/.bin/vitest`,
        ['run'],
        project,
        env as Record<string, string>,
      )
      expect(none.code, none.output).toBe(0)
      expect(none.output).toContain('examples/testcontainers: skipped, no container engine answers')
    },
    5 * 60_000,
  )
})
