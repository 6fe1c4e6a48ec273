// The live stream's places are bounded per session and per company, so that one company cannot
// take them all: the admin and the other companies always get theirs (issue 27, defect 2).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'

describe('live stream places', () => {
  let s: TestSandbox
  beforeEach(async () => {
    s = await startTestSandbox()
  })

  const signIn = async (form: Record<string, string>): Promise<string> => {
    const r = await fetch(`${s.url}/_sandbox/ui/sign-in`, {
      method: 'POST',
      body: new URLSearchParams(form),
      redirect: 'manual',
      headers: { origin: s.url },
    })
    return r.headers.get('set-cookie')!.split(';')[0]!
  }
  const streams: ReadableStreamDefaultReader<Uint8Array>[] = []
  afterEach(async () => {
    for (const r of streams.splice(0)) await r.cancel().catch(() => {})
    await s.close()
  })
  /** Opens a stream; answers whether it was let in (`connected`) or told the stream is full. */
  const open = async (cookie: string): Promise<'connected' | 'full'> => {
    const res = await fetch(`${s.url}/_sandbox/ui/live`, { headers: { cookie } })
    const reader = res.body!.getReader()
    streams.push(reader)
    const first = new TextDecoder().decode((await reader.read()).value)
    if (first.includes(': connected')) return 'connected'
    expect(first).toContain('event: full')
    return 'full'
  }
  const inactive = { client_id: 'inactive', client_secret: 'inactive-secret' }

  it('keeps places for the admin and the other companies when one session opens 100 streams', async () => {
    const hog = await signIn(inactive)
    const opened = []
    for (let i = 0; i < 100; i++) opened.push(await open(hog))
    expect(await open(await signIn({ token: s.adminToken }))).toBe('connected')
    expect(
      await open(await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })),
    ).toBe('connected')
    // A session holds a few (several tabs), not all.
    expect(opened.filter((o) => o === 'connected')).toHaveLength(5)
  })

  it('bounds a company across its sessions, and the admin is never refused for the companies', async () => {
    const opened = []
    for (let i = 0; i < 30; i++) opened.push(await open(await signIn(inactive)))
    expect(opened.filter((o) => o === 'connected')).toHaveLength(20)
    expect(
      await open(await signIn({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' })),
    ).toBe('connected')
    expect(await open(await signIn({ token: s.adminToken }))).toBe('connected')
  })

  it('keeps dozens of open streams without Node warning of a leak', async () => {
    const warnings: string[] = []
    const warned = (w: Error) => warnings.push(w.name)
    process.on('warning', warned)
    try {
      const companies = await Promise.all(
        Array.from({ length: 2 }, async () => (await s.admin('POST', '/companies')).body),
      )
      for (const t of companies)
        for (let i = 0; i < 15; i++)
          await open(await signIn({ client_id: t.client_id, client_secret: t.client_secret }))
      await new Promise((r) => setImmediate(r))
      expect(warnings).not.toContain('MaxListenersExceededWarning')
    } finally {
      process.off('warning', warned)
    }
  })

  it('gives a company its place when the companies hold all: the one holding the most gives up its oldest stream', async () => {
    const companies = await Promise.all(
      Array.from({ length: 6 }, async () => (await s.admin('POST', '/companies')).body),
    )
    let oldest: ReadableStreamDefaultReader<Uint8Array> | undefined
    for (const t of companies.slice(0, 5)) {
      for (let j = 0; j < 20; j++) {
        expect(
          await open(await signIn({ client_id: t.client_id, client_secret: t.client_secret })),
        ).toBe('connected')
        oldest ??= streams.at(-1)
      }
    }
    // 100 in all: the sixth company's first stream takes the oldest of the first company.
    const sixth = await signIn({
      client_id: companies[5].client_id,
      client_secret: companies[5].client_secret,
    })
    expect(await open(sixth)).toBe('connected')
    let told = ''
    for (;;) {
      const { value, done } = await oldest!.read()
      if (done) break
      told += new TextDecoder().decode(value)
    }
    expect(told).toContain('event: full')
    // A second sign-in of the first company cannot take it back (19 against 1).
    expect(
      await open(
        await signIn({
          client_id: companies[0].client_id,
          client_secret: companies[0].client_secret,
        }),
      ),
    ).toBe('full')
  })
})
