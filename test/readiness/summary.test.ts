// The summary exec and `readiness` print: a finding's line names its company and its wall-clock
// time, the receiver checks that failed are listed (findings or not), and the summary ends with
// what the sandbox cannot see; a report made while calls were still in flight says so, and so
// does the JUnit file.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { NOT_SEEN } from '../../src/readiness/catalog.js'
import { junitXml } from '../../src/readiness/junit.js'
import { summaryText } from '../../src/readiness/summary.js'
import { AUTH, request, startTestSandbox, type TestSandbox } from '../harness.js'
import { startHookReceiver, type HookReceiver } from './receivers.js'

let sb: TestSandbox
let rx: HookReceiver
beforeAll(async () => {
  sb = await startTestSandbox()
  rx = await startHookReceiver('careless')
})
afterAll(async () => {
  await rx.close()
  await sb.close()
})

it('names the company and wall-clock time of each finding, lists failed receiver checks, and ends with what it cannot see', async () => {
  // A company's receiver that takes anything, checked; and a call of that company without accept.
  const hook = (
    await request(sb.url, 'POST', '/_sandbox/webhooks', { auth: AUTH.main, json: { url: rx.url } })
  ).body
  rx.secret = hook.secret
  expect(
    (await request(sb.url, 'POST', `/_sandbox/webhooks/${hook.id}/check`, { auth: AUTH.main })).body
      .passed,
  ).toBe(false)
  const report = (await sb.admin('GET', '/readiness')).body
  const text = summaryText(report, { code: 1, reasons: [] })
  expect(text).toMatch(
    /error\s+receiver_accepts_bad_signature\s+x1\s+POST http:\/\/127\.0\.0\.1:\d+\/hooks \(loja-exemplo, \d{4}-\d\d-\d\dT[\d:.]+Z wall clock\): the receiver check: /,
  )
  expect(text).toContain(`  Receiver checks that failed\n  ${rx.url} (`)
  expect(text).toMatch(/\n {4}bad_signature\s+expected 4xx, answered 200: Verify webhook-signature/)
  expect(text).toMatch(/\n {4}stale_timestamp\s+expected 4xx, answered 200: /)
  expect(text).toContain(
    `  Not seen by the sandbox, whatever this report says\n${NOT_SEEN.map((n) => `  - ${n.what}\n`).join('')}`,
  )
  expect(report.receiver_checks).toEqual([
    {
      url: rx.url,
      time: expect.any(String),
      wall_time: expect.any(String),
      passed: false,
      failed: expect.any(Array),
    },
  ])
})

it('says when calls were still being processed: the summary first, and the JUnit file', async () => {
  const report = (await sb.admin('GET', '/readiness')).body
  expect(report.in_flight).toEqual({ calls: 0, wait_ms: 0 })
  expect(summaryText(report)).not.toContain('Not waited for')
  expect(junitXml(report, { failOn: 'error' })).not.toContain('readiness.run')
  const flying = { ...report, in_flight: { calls: 2, wait_ms: 0 } }
  const text = summaryText(flying, { code: 0, reasons: [] })
  expect(text.split('\n')[1]).toBe(
    '  Not waited for: 2 calls still being processed when this report was made (the wait, as long as the longest delay queued, ran out): what they show is not in this report',
  )
  expect(junitXml(flying, { failOn: 'error' })).toMatch(
    /<testcase classname="readiness.run" name="calls in flight" time="0">\s*<skipped message="Not waited for: 2 calls still being processed/,
  )
})
