// docs/CONTROL-PLANE.md#a-tenant-of-your-own, followed as written: the answer of
// POST /_sandbox/companies has the fields it shows, and each state's body gives the contract's
// answer its table says, to the operations it names (the readiness catalog's states, for a
// suite that makes a tenant per test).
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { request, startTestSandbox, type TestSandbox } from '../harness.js'

const doc = readFileSync(new URL('../../docs/CONTROL-PLANE.md', import.meta.url), 'utf8')
const section = doc.slice(
  doc.indexOf('## A tenant of your own'),
  doc.indexOf('## Every control endpoint'),
)

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

/** The table's rows: the state, the body, and the status and text answered. */
const states = section
  .split('\n')
  .filter((l) => /^\| (an?|no) /.test(l))
  .map((l) => {
    const [state, body, answer] = l.split(' | ').map((c) => c.replace(/^\| /, ''))
    const [, status, text] = /^(\d{3}) `([^`]+)`/.exec(answer!)!
    return {
      state: state!,
      body: JSON.parse(/`(\{.*?\})`/.exec(body!)![1]!),
      status: Number(status),
      text: text!,
      answer: answer!,
    }
  })

const CHARGE = { amount: 1000 }
const TRANSFER = { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' }

describe('docs/CONTROL-PLANE.md: a tenant of your own', () => {
  it("POST /_sandbox/companies answers the fields it shows, and its token is the credentials' Basic", async () => {
    const shown = JSON.parse(
      section
        .split('\n')
        .filter((l) => l.startsWith('# '))
        .map((l) => l.slice(2))
        .join(''),
    )
    const t = (await sb.admin('POST', '/companies', { name: 'Padaria', balance: 50000 })).body
    expect(Object.keys(t).sort()).toEqual(Object.keys(shown).sort())
    expect(Buffer.from(t.token, 'base64').toString()).toBe(`${t.client_id}:${t.client_secret}`)
  })

  it('lists the five states', () => expect(states.map((s) => s.state)).toHaveLength(5))

  it.each(states)('$state: $body answers $status', async ({ body, status, text, answer }) => {
    const t = (await sb.admin('POST', '/companies', { balance: 100_000, ...body })).body
    const auth = `Basic ${t.token}`
    const charge = await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
      auth,
      json: CHARGE,
    })
    const transfer = await request(sb.url, 'POST', '/api/v1/hub/transactions/out', {
      auth,
      json: TRANSFER,
    })
    const refused = (r: { status: number; body: { detail?: unknown } }) => [r.status, r.body.detail]
    // Transfers only where the table says so; both POSTs otherwise.
    const transfersOnly = /to transfers|to a transfer/.test(answer)
    expect(refused(transfer)).toEqual([status, text])
    if (transfersOnly) expect(charge.status).toBe(200)
    else expect(refused(charge)).toEqual([status, text])
  })
})
