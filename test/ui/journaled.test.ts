// What the dashboard does is the same call a curl would make, and is journaled like it: in the
// Requests page and GET /_sandbox/requests, with the person's company, and its refusals with the
// same status. Its page reads are not (the journal skips the dashboard, as it skips health checks).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { flashOf, signIn } from './forms.js'

describe('dashboard actions in the journal', () => {
  let s: TestSandbox
  beforeEach(async () => {
    s = await startTestSandbox()
  })
  afterEach(() => s.close())

  const journal = async (path: string) =>
    (await s.admin('GET', `/requests?path=${encodeURIComponent(path)}`)).body.data as {
      method: string
      status: number
      company_id: string | null
      request: { headers: Record<string, string>; body: unknown }
    }[]

  it('journals a Pay pressed by the admin as the same control call, and reads nothing into it', async () => {
    const charge = (
      await s.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 1000 },
      })
    ).body
    const ui = await signIn(s, { token: s.adminToken })
    await ui.get(`/_sandbox/ui/charges/${charge.transaction_id}`)
    const { page } = await ui.post(`/charges/${charge.transaction_id}/pay`, {})
    expect(flashOf(page)).toBe('Charge paid')
    const path = `/_sandbox/charges/${charge.transaction_id}/pay`
    const [entry, ...more] = await journal(path)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ method: 'POST', status: 200, company_id: null })
    expect(entry!.request.headers['user-agent']).toMatch(/^pix-sandbox-dashboard\//)
    // The page it was pressed on read the charge: no GET of it was journaled.
    expect(await journal(`/_sandbox/charges/${charge.transaction_id}`)).toEqual([])
    // Pressed again: the control plane's 409, journaled too, its detail shown.
    const again = await ui.post(`/charges/${charge.transaction_id}/pay`, {})
    expect(flashOf(again.page)).toBe('Charge is paid')
    expect((await journal(path)).map((e) => e.status)).toEqual([409, 200])
  })

  it("journals a company's action with its company, as its own credentials would be", async () => {
    const charge = (
      await s.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 1000 },
      })
    ).body
    const ui = await signIn(s, { client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
    await ui.post(`/charges/${charge.transaction_id}/cancel`, {})
    const [entry] = await journal(`/_sandbox/charges/${charge.transaction_id}/cancel`)
    expect(entry).toMatchObject({ method: 'POST', status: 200, company_id: 'loja-exemplo' })
  })
})
