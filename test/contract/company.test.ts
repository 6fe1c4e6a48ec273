// GET /user/company: the caller's company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, T0, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
})
afterAll(() => sb.close())

describe('GET /user/company', () => {
  it('answers api_active and both timestamps, ISO 8601 UTC with six fractional digits', async () => {
    const res = await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      api_active: true,
      created_at: '2026-03-01T12:00:00.000000Z',
      updated_at: '2026-03-01T12:00:00.000000Z',
    })
  })

  it('keeps the microseconds of the creation instant', async () => {
    sb.clock.set(T0 + 123_456)
    sb.apply({
      companies: [
        {
          id: 'micro',
          name: 'Micro',
          users: [
            { id: 'micro-u', credentials: [{ client_id: 'micro', client_secret: 'micro-secret' }] },
          ],
        },
      ],
    })
    const auth = `Basic ${Buffer.from('micro:micro-secret').toString('base64')}`
    const res = await sb.request('GET', '/api/v1/user/company', { auth })
    expect(res.body.created_at).toBe('2026-03-01T12:00:00.123456Z')
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
  })

  it('answers the same on the /oauth/user/company alias', async () => {
    const a = await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
    const b = await sb.request('GET', '/api/v1/oauth/user/company', { auth: AUTH.main })
    expect(b.status).toBe(200)
    expect(b.body).toEqual(a.body)
  })

  it('works for users without Provider or balance', async () => {
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: AUTH.noProvider })).status,
    ).toBe(200)
    expect(
      (await sb.request('GET', '/api/v1/user/company', { auth: AUTH.emptyBalance })).status,
    ).toBe(200)
  })
})
