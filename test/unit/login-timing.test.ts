// Login timing (issue 14): a refusal must take as long for an unknown client id as for a known
// one with a wrong secret, or the time of a 401 tells which client ids exist. Measured the way an
// attacker would, but on the use case itself so that the network's noise does not hide a
// difference: interleaved pairs in random order, compared by their medians and by a sign test,
// with bounds generous enough for a busy machine (before the fix: 2.4 times slower, and slower
// in 99% of the pairs).
import { hrtime } from 'node:process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AppError } from '../../src/domain/errors.js'
import { createAuthenticator, type Authenticator } from '../../src/operations/authenticate.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
let authenticate: Authenticator
beforeAll(async () => {
  sb = await startTestSandbox()
  authenticate = createAuthenticator(sb.sandbox.store)
})
afterAll(() => sb.close())

/** Nanoseconds one refused login takes. */
function refusal(clientId: string): number {
  const start = hrtime.bigint()
  try {
    authenticate(clientId, 'not-the-secret')
  } catch (err) {
    const ns = Number(hrtime.bigint() - start)
    if (!(err instanceof AppError && err.code === 'not_authenticated')) throw err
    return ns
  }
  throw new Error(`${clientId} was let in`)
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!

it('refuses a known and an unknown client id in the same time', () => {
  const known: number[] = []
  const unknown: number[] = []
  let knownSlower = 0
  for (let i = 0; i < 6000; i++) {
    // Same length as the known id, never the same one twice.
    const stranger = `sandbox-${i.toString(36).padStart(6, '0')}`
    const knownFirst = Math.random() < 0.5
    const a = knownFirst ? refusal('sandbox-client') : refusal(stranger)
    const b = knownFirst ? refusal(stranger) : refusal('sandbox-client')
    if (i < 1000) continue // warm-up
    const [k, u] = knownFirst ? [a, b] : [b, a]
    known.push(k)
    unknown.push(u)
    knownSlower += k > u ? 1 : k === u ? 0.5 : 0
  }
  const ratio = median(known) / median(unknown)
  const share = knownSlower / known.length
  const figures = `known ${median(known)} ns, unknown ${median(unknown)} ns; known slower in ${(share * 100).toFixed(1)}% of pairs`
  expect(ratio, figures).toBeGreaterThan(0.8)
  expect(ratio, figures).toBeLessThan(1.25)
  expect(share, figures).toBeGreaterThan(0.25)
  expect(share, figures).toBeLessThan(0.75)
})
