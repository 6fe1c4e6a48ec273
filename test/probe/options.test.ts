// What the probe refuses before sending anything, and how its command line reads.
import { describe, expect, it } from 'vitest'
import { parseProbeArgs, targetProblem } from '../../src/probe/options.js'
import { closedPort, probe } from './helpers.js'

describe('probe options', () => {
  it('defaults to 5 requests a second, read-only, and takes the secret from PIX_CLIENT_SECRET', async () => {
    const o = await parseProbeArgs(['https://staging.example.com/api/v1', '--client-id', 'me'], {
      PIX_CLIENT_SECRET: 'from-env',
    })
    expect(o).toMatchObject({
      target: 'https://staging.example.com/api/v1',
      clientId: 'me',
      clientSecret: 'from-env',
      rate: 5,
      createCharges: 0,
      transfers: false,
      largeBody: false,
      failOnDifference: false,
    })
  })

  it('reads every flag', async () => {
    const o = await parseProbeArgs(
      [
        'http://10.0.0.5/api/v1',
        '--insecure',
        '--create-charges',
        '2',
        '--transfers',
        '--large-body',
        '--rate',
        '0.5',
        '--timeout',
        '2500',
        '--json',
        'r.json',
        '--write-scenario',
        's.yaml',
        '--scenario',
        'many-users',
        '--fail-on-difference',
      ],
      {},
    )
    expect(o).toMatchObject({
      insecure: true,
      createCharges: 2,
      transfers: true,
      largeBody: true,
      rate: 0.5,
      timeoutMs: 2500,
      json: 'r.json',
      writeScenario: 's.yaml',
      scenario: 'many-users',
      failOnDifference: true,
    })
  })

  it('refuses a bad count', async () => {
    await expect(
      parseProbeArgs(['https://x.example', '--create-charges', 'many'], {}),
    ).rejects.toThrow(/whole number/)
  })

  it('allows https anywhere and http only on loopback, unless --insecure', () => {
    expect(targetProblem('https://staging.example.com/api/v1', false)).toBeUndefined()
    expect(targetProblem('http://127.0.0.1:8080/api/v1', false)).toBeUndefined()
    expect(targetProblem('http://localhost:8080/api/v1', false)).toBeUndefined()
    expect(targetProblem('http://[::1]:8080/api/v1', false)).toBeUndefined()
    expect(targetProblem('http://staging.example.com/api/v1', false)).toMatch(/refusing plain http/)
    expect(targetProblem('http://staging.example.com/api/v1', true)).toBeUndefined()
    expect(targetProblem('https://me:pw@staging.example.com', false)).toMatch(/holds credentials/)
    expect(targetProblem('ftp://x', false)).toMatch(/not http/)
  })
})

describe('a probe that cannot run exits 2', () => {
  it('for a plain-http remote target, before sending anything, without printing the secret', async () => {
    const run = await probe('http://staging.example.com/api/v1', {
      clientId: 'me',
      clientSecret: 'top-secret-1',
    })
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/refusing plain http/)
    expect(run.out).toBe('')
    expect(run.err + run.out).not.toContain('top-secret-1')
  })

  it('when nothing listens at the target', async () => {
    const port = await closedPort()
    const run = await probe(`http://127.0.0.1:${port}/api/v1`)
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/cannot reach .*connection refused/)
  })

  it('for a scenario that does not exist', async () => {
    const run = await probe('http://127.0.0.1:9/api/v1', { scenario: 'no-such-scenario' })
    expect(run.code).toBe(2)
    expect(run.err).toMatch(/cannot start the sandbox.*no scenario named "no-such-scenario"/)
  })
})
