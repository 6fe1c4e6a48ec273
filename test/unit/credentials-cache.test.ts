// Verified credentials are cached until an identity changes (operations/authenticate.ts): what a
// client would notice if the cache went wrong is a call let in on credentials no longer valid, or
// every call paying the full check again (a row read and a SHA-256) after one change.
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createAuthenticator } from '../../src/operations/authenticate.js'
import { startTestSandbox, tenantDoc, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
})
afterAll(() => sb.close())

it('checks credentials again once after an identity changes, then answers from the cache', () => {
  const { store } = sb.sandbox
  const authenticate = createAuthenticator(store)
  const check = vi.spyOn(store.identity, 'credentialCheck')
  const header = 'Basic c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ='
  const call = () => authenticate('sandbox-client', 'sandbox-secret', header)

  for (let i = 0; i < 3; i++) call()
  expect(check).toHaveBeenCalledTimes(1)

  // Another company added: an identity write, which drops every cached principal.
  sb.apply({ companies: [tenantDoc('outra')] })
  for (let i = 0; i < 3; i++) call()
  expect(check).toHaveBeenCalledTimes(2)
  expect(authenticate.cached(header)?.company.id).toBe(call().company.id)
  check.mockRestore()
})
