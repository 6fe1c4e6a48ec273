// The dashboard over plain HTTP: kept out of both OpenAPI documents and the journal; its
// session cookie's attributes; sign-in refusals; the live hub's scoping and coalescing.
import { AsyncLocalStorage } from 'node:async_hooks'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLiveHub } from '../../src/ui/live.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

describe('dashboard over HTTP', () => {
  let s: TestSandbox
  beforeEach(async () => {
    s = await startTestSandbox()
  })
  afterEach(() => s.close())

  const signIn = async (form: Record<string, string>) =>
    fetch(`${s.url}/_sandbox/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
      headers: { origin: s.url },
    })

  it('is in neither OpenAPI document', async () => {
    for (const doc of ['/openapi.json', '/_sandbox/openapi.json']) {
      const r = await s.request('GET', doc)
      expect(Object.keys(r.body.paths).filter((p) => p.includes('/ui'))).toEqual([])
    }
  })

  // hono/jsx renders inside an AsyncLocalStorage when it finds one; before Node 24 the first
  // run() installs promise hooks for the process's life, and every later request pays for them
  // (a fifth fewer contract calls per second after one page view, src/ui/html.ts).
  it('renders its pages without starting an AsyncLocalStorage', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run')
    try {
      const cookie = (await signIn({ token: s.adminToken })).headers
        .get('set-cookie')!
        .split(';')[0]!
      const pages = [
        await fetch(`${s.url}/_sandbox/ui/sign-in`),
        await fetch(`${s.url}/_sandbox/ui/requests`, { headers: { cookie } }),
      ]
      for (const page of pages) {
        expect(page.status).toBe(200)
        expect(await page.text()).toMatch(/^<!doctype html>.*<\/html>$/s)
      }
      expect(run).not.toHaveBeenCalled()
    } finally {
      run.mockRestore()
    }
  })

  it('says on the Requests page which call was dropped without an answer', async () => {
    await s.admin('POST', '/faults', { operation: 'transfer', drop: true, times: 1 })
    const transfer = () =>
      fetch(`${s.url}/api/v1/hub/transactions/out`, {
        method: 'POST',
        headers: { authorization: AUTH.main, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' }),
      })
    await expect(transfer()).rejects.toThrow()
    expect((await transfer()).status).toBe(200)
    const cookie = (await signIn({ token: s.adminToken })).headers.get('set-cookie')!.split(';')[0]!
    const page = await (
      await fetch(`${s.url}/_sandbox/ui/requests`, { headers: { cookie } })
    ).text()
    expect(page.match(/dropped: not answered/g)).toHaveLength(1)
  })

  it('sends people who are not signed in to the sign-in page', async () => {
    const r = await fetch(`${s.url}/_sandbox/ui/charges`, { redirect: 'manual' })
    expect(r.status).toBe(303)
    expect(r.headers.get('location')).toBe('/_sandbox/ui/sign-in?next=%2F_sandbox%2Fui%2Fcharges')
    expect((await fetch(`${s.url}/_sandbox/ui/live`)).status).toBe(401)
  })

  it('sets a signed, HttpOnly, SameSite=Strict session cookie that expires', async () => {
    const r = await signIn({ token: s.adminToken })
    expect(r.status).toBe(303)
    const cookie = r.headers.get('set-cookie')!
    expect(cookie).toMatch(/^pix_sandbox_ui=[\w-]+\.[\w%]+;/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
    expect(cookie).toMatch(/Max-Age=\d+/)
    expect(cookie).toContain('Path=/_sandbox/ui')
    // A tampered cookie is no session.
    const forged = cookie.split(';')[0]!.replace(/\.(.)/, '.x$1')
    expect(
      (await fetch(`${s.url}/_sandbox/ui`, { headers: { cookie: forged }, redirect: 'manual' }))
        .status,
    ).toBe(303)
    expect(
      (await fetch(`${s.url}/_sandbox/ui`, { headers: { cookie: cookie.split(';')[0]! } })).status,
    ).toBe(200)
  })

  it('refuses wrong credentials with a page that says so, and production credentials too', async () => {
    const forms: Record<string, string>[] = [
      { token: 'nope' },
      { client_id: 'sandbox-client', client_secret: 'nope' },
      { client_id: 'production-client', client_secret: 'production-secret' },
      {},
    ]
    for (const form of forms) {
      const r = await signIn(form)
      expect(r.status).toBe(401)
      expect(await r.text()).toContain('Not authenticated')
      expect(r.headers.get('set-cookie')).toBeNull()
    }
  })

  it("shows the scenario file's secrets to the admin only, never to a company", async () => {
    const page = async (form: Record<string, string>) => {
      const cookie = (await signIn(form)).headers.get('set-cookie')!.split(';')[0]!
      return (await fetch(`${s.url}/_sandbox/ui`, { headers: { cookie } })).text()
    }
    expect(await page({ token: s.adminToken })).toContain('<code>sandbox-secret</code>')
    const own = await page({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
    expect(own).toContain('sandbox-client')
    expect(own).not.toContain('sandbox-secret')
    expect(own).not.toContain('no-provider-secret')
  })

  it('shows a company its own latest events however busy the others are, newest first', async () => {
    const cookie = (
      await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
    ).headers
      .get('set-cookie')!
      .split(';')[0]!
    const own = (
      await s.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: 101 },
      })
    ).body.transaction_id
    // Another company writes 150 events after it (a charge created, 150 times).
    const other = (await s.admin('POST', '/companies')).body
    for (let i = 0; i < 150; i++)
      await s.request('POST', '/api/v1/hub/transactions/in', {
        auth: `Basic ${other.token}`,
        json: { amount: 1 + i },
      })
    const html = await (await fetch(`${s.url}/_sandbox/ui/events`, { headers: { cookie } })).text()
    expect(html).toContain(own)
    expect(html).not.toContain(other.company_id)
    // The newest first: the charge's event before the scenario's opening balances.
    expect(html.indexOf(own)).toBeLessThan(html.indexOf('opening'))
  })

  it('streams scoped changes, and ends the stream when the server closes instead of holding the close up', async () => {
    const cookie = (
      await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
    ).headers
      .get('set-cookie')!
      .split(';')[0]!
    const res = await fetch(`${s.url}/_sandbox/ui/live`, { headers: { cookie } })
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    expect(decoder.decode((await reader.read()).value)).toContain(': connected')
    const charge = await s.request('POST', '/api/v1/hub/transactions/in', {
      auth: AUTH.main,
      json: { amount: 100 },
    })
    while (!text.includes(charge.body.transaction_id))
      text += decoder.decode((await reader.read()).value)
    expect(text).toMatch(/^event: change\ndata: \{"topics":\[/)
    // The server's force-close of lingering connections comes after 10 s; the stream must not wait for it.
    const closed = s.close().then(() => 'closed')
    const bound = new Promise((r) => setTimeout(r, 5000, 'still open')).then(String)
    expect(await Promise.race([closed, bound])).toBe('closed')
    let done = false
    while (!done) done = (await reader.read()).done
  })

  it('keeps its own pages out of the request journal', async () => {
    const r = await signIn({ token: s.adminToken })
    const cookie = r.headers.get('set-cookie')!.split(';')[0]!
    await fetch(`${s.url}/_sandbox/ui/charges`, { headers: { cookie } })
    await s.request('GET', '/api/v1/user/company', { auth: AUTH.main })
    const journal = await s.admin('GET', '/requests')
    expect(journal.body.data.map((e: any) => e.path)).toEqual(['/api/v1/user/company'])
  })
})

describe('live hub', () => {
  const event = (companyId: string | null, id: string) => ({
    kind: 'event' as const,
    event: {
      id: `evt_${id}`,
      type: 'charge.created',
      at: 0,
      companyId,
      data: { transaction_id: id },
    },
  })

  it('is switched on by the first listener and off by the last, and coalesces changes into one message per flush, scoped per listener', () => {
    vi.useFakeTimers()
    try {
      const active: boolean[] = []
      const hub = createLiveHub((a) => active.push(a))
      hub.notify(event('a', 'before'))
      const admin: string[] = []
      const companyA: string[] = []
      const leaveAdmin = hub.listen({
        scope: { admin: true },
        session: 'admin',
        send: (t) => admin.push(t),
        close: () => {},
      })!
      const leaveA = hub.listen({
        scope: { admin: false, companyId: 'a', principal: {} as any },
        session: 'a',
        send: (t) => companyA.push(t),
        close: () => {},
      })!
      // The sandbox is asked to tell changes only from the first listener on.
      expect(active).toEqual([true])
      hub.notify(event('a', 'mine'))
      hub.notify(event('b', 'theirs'))
      hub.notify({ kind: 'clock' })
      hub.notify({ kind: 'request', companyId: 'b' })
      vi.runAllTimers()
      expect(admin).toHaveLength(1)
      expect(companyA).toHaveLength(1)
      const a = JSON.parse(companyA[0]!.split('data: ')[1]!)
      expect(a.ids).toContain('mine')
      expect(JSON.stringify(a)).not.toContain('theirs')
      expect(a.topics.sort()).toEqual(['charge', 'clock', 'event'])
      expect(admin[0]).toContain('theirs')
      expect(admin[0]).not.toContain('before')
      // Beyond the kept changes, a company still hears of its own topics, never another's ids.
      for (let i = 0; i < 2000; i++) hub.notify(event('b', `flood${i}`))
      hub.notify(event('a', 'late'))
      vi.runAllTimers()
      expect(companyA[1]).toContain('charge')
      expect(companyA[1]).not.toContain('flood')
      leaveA()
      leaveAdmin()
      expect(active).toEqual([true, false])
    } finally {
      vi.useRealTimers()
    }
  })

  it("tells of a webhook attempt the worker recorded as topic delivery, to the delivery's company only", () => {
    vi.useFakeTimers()
    try {
      const hub = createLiveHub()
      const admin: string[] = []
      const companyA: string[] = []
      hub.listen({
        scope: { admin: true },
        session: 'admin',
        send: (t) => admin.push(t),
        close: () => {},
      })
      hub.listen({
        scope: { admin: false, companyId: 'a', principal: {} as any },
        session: 'a',
        send: (t) => companyA.push(t),
        close: () => {},
      })
      hub.notify({ kind: 'delivery', id: 'msg_mine', companyId: 'a', webhook: null })
      // A 410 from the admin's global subscription disabled it: only the admin is told of the subscription.
      hub.notify({
        kind: 'delivery',
        id: 'msg_theirs',
        companyId: 'b',
        webhook: { id: 'wh_global', companyId: null },
      })
      vi.runAllTimers()
      expect(JSON.parse(companyA[0]!.split('data: ')[1]!)).toEqual({
        topics: ['delivery'],
        ids: ['msg_mine'],
        partial: false,
      })
      expect(JSON.parse(admin[0]!.split('data: ')[1]!)).toEqual({
        topics: ['delivery', 'webhook'],
        ids: ['msg_mine', 'msg_theirs', 'wh_global'],
        partial: false,
      })
    } finally {
      vi.useRealTimers()
    }
  })
})
