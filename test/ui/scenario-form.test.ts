// The Overview's scenario forms over HTTP: a shipped scenario applied on top, a file of one's own
// checked as `pix-sandbox scenario check` checks it (its problems, with their lines, in the form,
// nothing applied), then applied as written; and the Readiness set-ups that make a company to call as.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { basic, startTestSandbox, type TestSandbox } from '../harness.js'
import { type Dashboard, flashOf, signIn } from './forms.js'

describe('scenario files and tenants from the dashboard', () => {
  let s: TestSandbox
  let ui: Dashboard
  beforeEach(async () => {
    s = await startTestSandbox()
    ui = await signIn(s, { token: s.adminToken })
  })
  afterEach(() => s.close())

  const upload = (text: string, name = 'loja.yaml') => {
    const form = new FormData()
    form.set('file', new File([text], name, { type: 'application/yaml' }))
    return ui.upload('/scenarios', form)
  }
  const scenarioCalls = async () =>
    (await s.admin('GET', '/requests?path=/_sandbox/scenarios')).body.data.length as number

  it('applies a shipped scenario on top of the state', async () => {
    const { page } = await ui.post('/scenarios', { name: 'many-users' })
    expect(flashOf(page)).toBe('Applied many-users on top of the state')
    const ids = (await s.admin('GET', '/companies')).body.data.map(
      (c: { company_id: string }) => c.company_id,
    )
    expect(ids).toContain('loja-exemplo')
    expect(ids).toContain('marketplace')
    expect(await scenarioCalls()).toBe(1)
  })

  it("shows a file's problems with their lines in the form, as scenario check prints them, and applies nothing", async () => {
    const { page } = await upload(
      'settings:\n  charge_ttl: 60\ncompanies:\n  - id: x\n    users:\n      - id: u\n        balance: -5\n',
    )
    expect(flashOf(page)).toBe(
      'loja.yaml is not a valid scenario: nothing was applied. Its problems, as pix-sandbox scenario check prints them: ' +
        'loja.yaml: settings (line 2): unknown field(s) "charge_ttl" ' +
        'loja.yaml: companies[0].name (line 4): Invalid input: expected string, received undefined ' +
        'loja.yaml: companies[0].users[0].balance (line 7): Too small: expected number to be >=0',
    )
    // In the Scenario card, with the form it is about.
    expect(page.indexOf('charge_ttl')).toBeGreaterThan(page.indexOf('<h2>Scenario</h2>'))
    expect(await scenarioCalls()).toBe(0)
    const broken = await upload('companies:\n  - id: a\n   name: b\n', 'broken.yaml')
    expect(flashOf(broken.page)).toMatch(
      /^broken\.yaml is not a valid scenario.*broken\.yaml: line 3: /,
    )
  })

  it('applies a file as written: the journal shows the document the file holds, nothing added', async () => {
    const { page } = await upload(
      '# a comment\nrules:\n  transfers:\n    - when: { amount: 4321 }\n      then: { status: failed, message: Nope }\n',
    )
    expect(flashOf(page)).toBe('Applied loja.yaml on top of the state')
    const rule = { when: { amount: 4321 }, then: { status: 'failed', message: 'Nope' } }
    expect((await s.admin('GET', '/scenario')).body.rules.transfers.at(-1)).toEqual(rule)
    const [call] = (await s.admin('GET', '/requests?path=/_sandbox/scenarios')).body.data
    expect(call.request.body).toEqual({ document: { rules: { transfers: [rule] } } })
  })

  it('sets up an insufficient balance from Readiness: a company with a balance of 0, its credentials shown once', async () => {
    const { page } = await ui.post('/readiness/setup', {
      behaviour: 'transfer.insufficient_balance',
    })
    const id = /Client id<\/span> <code>([^<]+)</.exec(page)![1]!
    const secret = /Client secret<\/span> <code>([^<]+)</.exec(page)![1]!
    const transfer = await s.request('POST', '/api/v1/hub/transactions/out', {
      auth: basic(id, secret),
      json: { amount: 1000, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
    })
    expect(transfer.body).toEqual({ detail: 'Insufficient balance' })
    const report = (await s.admin('GET', '/readiness')).body
    expect(
      report.behaviours.find((b: { id: string }) => b.id === 'transfer.insufficient_balance'),
    ).toMatchObject({ met: true })
    // A company cannot make companies: it is sent to set a balance instead.
    const company = await signIn(s, {
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
    })
    const readiness = await company.get('/_sandbox/ui/readiness')
    expect(readiness).toContain('href="/_sandbox/ui#set-balance">Set a balance of 0 (Overview)</a>')
  })
})
