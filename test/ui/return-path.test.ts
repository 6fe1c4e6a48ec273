// Where the dashboard sends the browser after a form: a dashboard page on this origin, settled
// before the action runs, so a hostile `back` or `next` falls back to the page's own URL and
// never turns a done action into a 500 (issue 27, defect 5).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

const UI = '/_sandbox/ui'
/** Values that must never become the Location, each falling back. */
const HOSTILE = [
  `${UI}\r\nX: 1`,
  `${UI}\nX: 1`,
  `${UI}/charges\tx`,
  `${UI}\u0085`,
  '//evil.example/_sandbox/ui',
  '/\\evil.example/_sandbox/ui',
  `${UI}/..\\..\\evil`,
  `${UI}/../../api/v1/user/company`,
  `${UI}/%2e%2e/%2e%2e/docs`,
  `${UI}x`,
  'https://evil.example/_sandbox/ui',
  'javascript:alert(1)//_sandbox/ui',
  `${UI}/${'a'.repeat(3000)}`,
]

describe('return paths of dashboard forms', () => {
  let s: TestSandbox
  let cookie: string
  beforeEach(async () => {
    s = await startTestSandbox()
    cookie = await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' }).then(
      (r) => r.headers.get('set-cookie')!.split(';')[0]!,
    )
  })
  afterEach(() => s.close())

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${s.url}${UI}${path}`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
      headers: { origin: s.url, cookie, ...headers },
    })
  const signIn = (form: Record<string, string>) => post('/sign-in', form, { cookie: '' })
  const newCharge = async () =>
    (
      await s.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 100 },
      })
    ).body.transaction_id as string
  const statusOf = async (id: string) => (await s.admin('GET', `/charges/${id}`)).body.status

  it('pays or cancels a charge with a CR LF in `back`, and goes back to the charge page instead of answering 500', async () => {
    for (const [action, status] of [
      ['pay', 'paid'],
      ['cancel', 'cancelled'],
    ] as const) {
      const id = await newCharge()
      const r = await post(`/charges/${id}/${action}`, { back: `${UI}\r\nX: 1` })
      expect(r.status, action).toBe(303)
      expect(r.headers.get('location')).toBe(`${UI}/charges/${id}`)
      expect(r.headers.get('x')).toBeNull()
      expect(await statusOf(id)).toBe(status)
    }
  })

  it('signs in with a CR LF in `next`, and goes to the overview', async () => {
    const r = await signIn({
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
      next: `${UI}/charges\r\nX: 1`,
    })
    expect(r.status).toBe(303)
    expect(r.headers.get('location')).toBe(UI)
    expect(r.headers.get('set-cookie')).toMatch(/^pix_sandbox_ui=/)
  })

  it('never sends the browser outside the dashboard, from `back`, `next` or the Referer', async () => {
    const id = await newCharge()
    for (const back of HOSTILE) {
      expect(
        (await post(`/charges/${id}/expire`, { back })).headers.get('location'),
        JSON.stringify(back),
      ).toBe(`${UI}/charges/${id}`)
      // No `back` and no page of its own: the Referer, then the overview.
      expect(
        (await post('/faults/clear', { back }, { referer: `${s.url}${UI}/faults` })).headers.get(
          'location',
        ),
        JSON.stringify(back),
      ).toBe(`${UI}/faults`)
      // (A header cannot carry control characters: HTTP clients refuse to send them.)
      if (!/[\u0000-\u001f]/.test(back))
        expect(
          (await post('/faults/clear', {}, { referer: back })).headers.get('location'),
          JSON.stringify(back),
        ).toBe(UI)
      const signedIn = await signIn({
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
        next: back,
      })
      expect(signedIn.headers.get('location'), JSON.stringify(back)).toBe(UI)
      const page = await (
        await fetch(`${s.url}${UI}/sign-in?next=${encodeURIComponent(back)}`)
      ).text()
      expect(page).toContain(`name="next" value="${UI}"`)
    }
  })

  it('keeps a return path that is a dashboard page, query included, normalized', async () => {
    const r = await post('/faults/clear', { back: `${UI}/charges?status=paid&company_id=x y` })
    expect(r.headers.get('location')).toBe(`${UI}/charges?status=paid&company_id=x%20y`)
    expect(
      (await post('/faults/clear', { back: `${UI}/charges/../transfers` })).headers.get('location'),
    ).toBe(`${UI}/transfers`)
    expect(
      (await signIn({ token: s.adminToken, next: `${UI}/webhooks` })).headers.get('location'),
    ).toBe(`${UI}/webhooks`)
  })
})
