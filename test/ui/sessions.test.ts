// Dashboard sessions are bounded per person: a company's sign-ins end its own oldest sessions,
// never the admin's or another company's (issue 27, defect 1).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'

describe('dashboard sessions', () => {
  let s: TestSandbox
  beforeEach(async () => {
    s = await startTestSandbox()
  })
  afterEach(() => s.close())

  const signIn = async (form: Record<string, string>, cookie?: string): Promise<string> => {
    const r = await fetch(`${s.url}/_sandbox/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
      headers: { origin: s.url, ...(cookie && { cookie }) },
    })
    expect(r.status).toBe(303)
    return r.headers.get('set-cookie')!.split(';')[0]!
  }
  const signedIn = async (cookie: string) =>
    (await fetch(`${s.url}/_sandbox/ui`, { headers: { cookie }, redirect: 'manual' })).status ===
    200
  const inactive = { client_id: 'inactive', client_secret: 'inactive-secret' }

  it("ends neither the admin's nor another company's session however often a company signs in, only its own oldest", async () => {
    const admin = await signIn({ token: s.adminToken })
    const other = await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
    const first = await signIn(inactive)
    // The review's attack: 1,000 sign-ins with the public credential of the inactive company.
    let last = first
    for (let i = 0; i < 100; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => signIn(inactive)))
      last = batch.at(-1)!
    }
    expect(await signedIn(admin)).toBe(true)
    expect(await signedIn(other)).toBe(true)
    expect(await signedIn(last)).toBe(true)
    expect(await signedIn(first)).toBe(false)
  })

  it('replaces the session of a browser that signs in again', async () => {
    const before = await signIn(inactive)
    const after = await signIn(inactive, before)
    expect(await signedIn(after)).toBe(true)
    expect(await signedIn(before)).toBe(false)
  })
})
