// An open QA dashboard, as the bench sees it: signed in as admin on the Requests page (the page
// the most changes refresh), reading the live stream and, like the page's script, re-reading the
// page once per change message, one read at a time (src/ui/script.ts). What it costs the server
// is what `npm run bench` compares with no dashboard open.

export interface OpenDashboard {
  /** Change messages received, and page re-reads they caused. */
  counts(): { messages: number; refreshes: number }
  close(): Promise<void>
}

async function signIn(url: string, adminToken: string): Promise<string> {
  const res = await fetch(`${url}/_sandbox/ui/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ token: adminToken }),
    redirect: 'manual',
  })
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  if (res.status !== 303 || !cookie) throw new Error(`dashboard sign-in answered ${res.status}`)
  return cookie
}

export async function openDashboard(url: string, adminToken: string): Promise<OpenDashboard> {
  const cookie = await signIn(url, adminToken)
  const page = `${url}/_sandbox/ui/requests`
  const abort = new AbortController()
  const res = await fetch(`${url}/_sandbox/ui/live`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: abort.signal,
  })
  if (res.status !== 200 || !res.body)
    throw new Error(`dashboard live stream answered ${res.status}`)
  let messages = 0
  let refreshes = 0
  let refreshing: Promise<void> | null = null
  let again = false
  const refresh = (): void => {
    if (refreshing) {
      again = true
      return
    }
    refreshing = (async () => {
      const r = await fetch(page, { headers: { cookie, 'x-ui-live': '1' }, signal: abort.signal })
      await r.text()
      refreshes++
    })()
      .catch(() => undefined)
      .finally(() => {
        refreshing = null
        if (again && !abort.signal.aborted) {
          again = false
          refresh()
        }
      })
  }
  const reading = (async () => {
    const decoder = new TextDecoder()
    for await (const chunk of res.body!) {
      const changes = decoder
        .decode(chunk as Uint8Array)
        .split('\n\n')
        .filter((m) => m.includes('event: change')).length
      messages += changes
      if (changes) refresh()
    }
  })().catch(() => undefined)
  return {
    counts: () => ({ messages, refreshes }),
    async close(): Promise<void> {
      abort.abort()
      await reading
      await refreshing
    },
  }
}
