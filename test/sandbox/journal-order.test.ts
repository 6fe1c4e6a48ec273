// The journal lists requests by arrival, and its times follow that order when the clock went back:
// a reset after a clock advance was listed among the requests after it but an hour later than them,
// and a slow request was listed after those that arrived while it was under way.
import { afterEach, beforeEach, expect, it } from 'vitest'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeEach(async () => (sb = await startTestSandbox()))
afterEach(() => sb.close())

type Entry = { method: string; path: string; at: string; id: number }
const journal = async (): Promise<Entry[]> => (await sb.admin('GET', '/requests')).body.data

it('shows a reset after a clock advance at the time it reset the clock to, before the requests that follow it', async () => {
  await sb.admin('POST', '/clock/advance', { seconds: 3600 })
  await sb.admin('POST', '/reset')
  await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
  const [company, reset] = await journal()
  expect([company!.path, reset!.path]).toEqual(['/api/v1/user/company', '/_sandbox/reset'])
  expect(Date.parse(reset!.at)).toBeLessThanOrEqual(Date.parse(company!.at))
})

it('keeps a clock advance at the time it arrived, and what follows at the advanced time', async () => {
  await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
  await sb.admin('POST', '/clock/advance', { seconds: 3600 })
  await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
  const [after, advance, before] = await journal()
  expect(advance!.path).toBe('/_sandbox/clock/advance')
  expect(Date.parse(advance!.at)).toBe(Date.parse(before!.at))
  expect(Date.parse(after!.at) - Date.parse(advance!.at)).toBe(3600_000)
})

it('lists a slow request by its arrival, below a request that arrived while it was under way, on every page', async () => {
  await sb.admin('POST', '/faults', { operation: 'company', delay_ms: 400, times: 1 })
  const slow = sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })
  await new Promise((r) => setTimeout(r, 100))
  for (let i = 0; i < 3; i++) await sb.admin('GET', '/clock') // arrive, and are answered, while it waits
  await slow
  const entries = await journal()
  expect(entries.map((e) => e.path)).toEqual([
    '/_sandbox/clock',
    '/_sandbox/clock',
    '/_sandbox/clock',
    '/api/v1/user/company',
    '/_sandbox/faults',
  ])
  expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a))
  // Page by page, one at a time: the same order, nothing skipped or repeated.
  const paged: string[] = []
  for (let cursor: string | null = null, n = 0; n < 10; n++) {
    const page: { data: Entry[]; next_cursor: string | null } = (
      await sb.admin('GET', `/requests?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
    ).body
    paged.push(...page.data.map((e) => e.path))
    if (!(cursor = page.next_cursor)) break
  }
  expect(paged).toEqual(entries.map((e) => e.path))
})
