// The dashboard's forms over HTTP, as a QA person uses them instead of curl: each makes the call
// curl would (the same route, body and answer, journaled), as the credential chosen, with the
// scenario's magic values by name; a refusal is said in the form. The browser drives the same
// forms in qa-session.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../src/scenarios/settings.js'
import { validateScenario } from '../../src/scenarios/loader.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { type Dashboard, flashOf, optionsOf, sendByMagic, signIn } from './forms.js'

describe('the QA forms', () => {
  let s: TestSandbox
  let ui: Dashboard
  beforeEach(async () => {
    s = await startTestSandbox()
    ui = await signIn(s, { token: s.adminToken })
  })
  afterEach(() => s.close())

  const journal = async (path: string) =>
    (await s.admin('GET', `/requests?path=${encodeURIComponent(path)}`)).body.data as {
      status: number
      company_id: string | null
      request: { body: unknown }
      response: { body: any }
    }[]
  /** The value of the option of `select[name]` whose text starts with `text`, as the page offers it. */
  const option = (page: string, name: string, text: string) => {
    const found = optionsOf(page, name).find(([, t]) => t.startsWith(text))
    if (!found) throw new Error(`no option "${text}" in ${name}`)
    return found[0]
  }

  it('creates a charge as the credential chosen, journaled as the contract call, and opens it', async () => {
    const { location, page } = await ui.post('/charges/new', {
      as: 'sandbox-client',
      amount: '12,34',
      description: 'Pedido 77',
    })
    const [entry, ...more] = await journal('/api/v1/hub/transactions/in')
    expect(more).toEqual([])
    expect(entry).toMatchObject({
      status: 200,
      company_id: 'loja-exemplo',
      request: { body: { amount: 1234, description: 'Pedido 77' } },
    })
    const id = entry!.response.body.transaction_id
    expect(location).toBe(`/_sandbox/ui/charges/${id}`)
    expect(flashOf(page)).toBe('Charge created: R$ 12,34, pending')
    expect((await s.admin('GET', `/charges/${id}`)).body).toMatchObject({
      amount: 1234,
      description: 'Pedido 77',
      status: 'pending',
    })
  })

  it("offers the scenario's magic values by name: a charge paid on its own, a transfer to an inactive key", async () => {
    const charges = await ui.get('/_sandbox/ui/charges')
    const autoPaid = option(charges, 'magic', 'is paid 5 s later')
    expect(autoPaid).toBe('amount=4242')
    const { location } = await ui.post('/charges/new', { as: 'sandbox-client', magic: autoPaid })
    const id = location.split('/').pop()!
    await s.admin('POST', '/clock/advance', { seconds: 5 })
    expect((await s.admin('GET', `/charges/${id}`)).body).toMatchObject({
      amount: 4242,
      status: 'paid',
    })

    const transfers = await ui.get('/_sandbox/ui/transfers')
    const inactive = option(transfers, 'magic', 'fails: Pix key not found or inactive')
    const sent = await ui.post('/transfers/new', {
      as: 'sandbox-client',
      magic: inactive,
      pix_type: 'CPF',
      pix_key: '',
      amount: '',
    })
    expect(flashOf(sent.page)).toBe(
      'Transfer failed: Pix key not found or inactive (R$ 10,00 to failed@pix.example)',
    )
    const [entry] = await journal('/api/v1/hub/transactions/out')
    expect(entry!.request.body).toEqual({
      amount: 1000,
      pix_key: 'failed@pix.example',
      pix_type: 'EMAIL',
    })
    expect(sent.location).toBe(`/_sandbox/ui/transfers/${entry!.response.body.transaction_id}`)
    // A key typed wins over the magic value's, with the type chosen for it; its amount is kept.
    const rejected = option(transfers, 'magic', 'fails: Transfer rejected')
    await ui.post('/transfers/new', {
      as: 'sandbox-client',
      magic: rejected,
      pix_type: 'EMAIL',
      pix_key: 'joao@example.com',
    })
    expect((await journal('/api/v1/hub/transactions/out'))[0]!.request.body).toEqual({
      amount: 666,
      pix_key: 'joao@example.com',
      pix_type: 'EMAIL',
    })
  })

  it('sends, with a magic value and the fields left empty, the fields the value names and the required ones, no other', async () => {
    s.apply({
      rules: {
        charges: [{ when: { description_contains: '[pay]' }, then: { auto_pay_after_seconds: 5 } }],
      },
    })
    const forms = [
      ['/charges/new', '/api/v1/hub/transactions/in', ['amount'], 'id="new-charge"'],
      [
        '/transfers/new',
        '/api/v1/hub/transactions/out',
        ['amount', 'pix_key', 'pix_type'],
        'id="send-transfer"',
      ],
    ] as const
    for (const [action, path, required, form] of forms) {
      const page = await ui.get(`/_sandbox/ui/${action.split('/')[1]}`)
      const offered = optionsOf(page, 'magic', form).filter(([v]) => v)
      expect(offered.length, action).toBeGreaterThan(0)
      // As a browser posts the form: every text control, left empty, sent as "".
      const inForm = page.slice(page.indexOf(form), page.indexOf('</form>', page.indexOf(form)))
      const blank = Object.fromEntries(
        [...inForm.matchAll(/<(?:input|textarea)\b[^>]*\bname="(\w+)"/g)].map(([, n]) => [n!, '']),
      )
      expect(Object.keys(blank).length, `${action}'s text controls`).toBeGreaterThan(0)
      for (const [magic, label] of offered) {
        const [before] = await journal(path)
        await ui.post(action, { ...blank, as: 'sandbox-client', magic, pix_type: 'EMAIL' })
        const [last] = await journal(path)
        // The form made the call: what is read below is this post's, not an earlier one.
        expect(last, `${action} with "${label}" made a contract call`).not.toEqual(before)
        const named = [...new URLSearchParams(magic).keys()]
        expect(
          Object.keys(last!.request.body as object).filter(
            (f) => !named.includes(f) && !required.includes(f as never),
          ),
          `${action} with "${label}" and nothing typed`,
        ).toEqual([])
      }
    }
  })

  it('offers only magic values the contract takes, whatever keys the scenario and its settings hold', async () => {
    // A key of each type wherever a scenario holds keys: inactive in the key directory, in the
    // rules, and in each setting that takes a list of them.
    const keys = {
      CPF: '52998224725',
      CNPJ: '11222333000181',
      PHONE: '+5511987654321',
      EMAIL: 'ana@example.com',
    }
    const inactive = {
      CPF: '11144477735',
      CNPJ: '11444777000161',
      PHONE: '+5521987654321',
      EMAIL: 'bia@example.com',
    }
    const takesKeys = (name: string) => {
      try {
        validateScenario({ settings: { [name]: Object.values(keys) } }, 'test')
        return true
      } catch {
        return false
      }
    }
    const settings = Object.fromEntries(
      Object.keys(DEFAULT_SETTINGS)
        .filter(takesKeys)
        .map((name) => [name, Object.values(keys)]),
    )
    const entries = Object.entries(keys)
    s.apply({
      settings,
      pix_keys: Object.entries(inactive).map(([type, key]) => ({ key, type, active: false })),
      rules: {
        transfers: [
          ...entries.map(([, key]) => ({ when: { pix_key: key }, then: { status: 'failed' } })),
          ...entries.map(([type]) => ({ when: { pix_type: type }, then: { status: 'pending' } })),
        ],
      },
    })
    const offered = optionsOf(await ui.get('/_sandbox/ui/transfers'), 'magic').filter(([v]) => v)
    expect(offered.length).toBeGreaterThanOrEqual(entries.length * 3)
    const refused: string[] = []
    for (const [magic, label] of offered) {
      const { id, flash } = await sendByMagic(ui, magic)
      if (!id && flash !== 'The contract answered 422: Insufficient balance')
        refused.push(`${label}: ${flash}`)
    }
    expect(refused).toEqual([])
  })

  it("says the contract's refusal in the form it came from: an insufficient balance", async () => {
    const { location, page } = await ui.post('/transfers/new', {
      as: 'empty-balance',
      pix_type: 'EMAIL',
      pix_key: 'maria@example.com',
      amount: '10',
    })
    expect(location).toBe('/_sandbox/ui/transfers')
    expect(flashOf(page)).toBe('The contract answered 422: Insufficient balance')
    // Shown in the Send a transfer card, not atop the page.
    expect(page.indexOf('Insufficient balance')).toBeGreaterThan(page.indexOf('Send a transfer'))
    expect((await journal('/api/v1/hub/transactions/out')).map((e) => e.status)).toEqual([422])
    // The form holds what was sent, to correct it and send again.
    expect(page).toMatch(/<option value="empty-balance" selected="">/)
    expect(page).toContain(
      'name="pix_key" maxlength="77" placeholder="maria@example.com" value="maria@example.com"',
    )
    expect(page).toContain('name="amount" inputmode="decimal" placeholder="10,00" value="10"')
  })

  it('acts only as a sandbox credential the person may use: a company its own, never production keys', async () => {
    const company = await signIn(s, {
      client_id: 'sandbox-client',
      client_secret: 'sandbox-secret',
    })
    for (const as of ['inactive', 'production-client', 'no-such-client']) {
      const { page } = await company.post('/charges/new', { as, amount: '10' })
      expect(flashOf(page)).toBe(`${as}: not a sandbox credential you may act as`)
    }
    // Another user of its own company is its own: an empty balance is a company's test too.
    await company.post('/transfers/new', { as: 'empty-balance', pix_key: 'a@example.com' })
    expect(await journal('/api/v1/hub/transactions/in')).toEqual([])
    expect((await journal('/api/v1/hub/transactions/out')).map((e) => e.company_id)).toEqual([
      'loja-exemplo',
    ])
    // What cannot be an amount is refused before anything is asked.
    const { page } = await company.post('/charges/new', { as: 'sandbox-client', amount: '10,555' })
    expect(flashOf(page)).toBe('Amount: "10,555" is not an amount in reais (e.g. 10,00)')
    expect(await journal('/api/v1/hub/transactions/in')).toEqual([])
  })

  it("sets a user's balance, and makes a company in the state a test needs", async () => {
    const { page } = await ui.post('/balance', { user_id: 'loja-exemplo-user', amount: '0' })
    expect(flashOf(page)).toBe('Balance of loja-exemplo-user set to R$ 0,00')
    expect((await s.admin('GET', '/users/loja-exemplo-user/balance')).body.balance).toBe(0)
    expect((await journal('/_sandbox/users/loja-exemplo-user/balance'))[0]!.status).toBe(200)
    // A company may set its own users' balances only, as its credentials may.
    const company = await signIn(s, { client_id: 'inactive', client_secret: 'inactive-secret' })
    const other = await company.post('/balance', { user_id: 'loja-exemplo-user', amount: '5' })
    expect(flashOf(other.page)).toMatch(/not found/i)

    const made = await ui.post('/companies', {
      name: 'Loja Sem Nada',
      balance: '1.234,56',
      api_active: 'false',
      providers: 'none',
      permissions: 'charge',
    })
    const secret = /Client secret<\/span> <code>([^<]+)</.exec(made.page)![1]!
    const clientId = /Client id<\/span> <code>([^<]+)</.exec(made.page)![1]!
    const tenants = (await s.admin('GET', '/companies')).body.data
    const tenant = tenants.find((c: { name: string }) => c.name === 'Loja Sem Nada')
    expect(tenant).toMatchObject({
      api_active: false,
      users: [
        {
          balance: 123456,
          permissions: ['charge'],
          providers: { in: null, out: null },
          credentials: [{ client_id: clientId }],
        },
      ],
    })
    const call = await s.request('POST', '/api/v1/hub/transactions/in', {
      auth: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
      json: { amount: 100 },
    })
    expect(call.status).toBe(403)
  })

  it('says how far the clock is from real time, and which events an advance ran', async () => {
    const charge = (await ui.post('/charges/new', { as: 'sandbox-client', amount: '10' })).location
    const id = charge.split('/').pop()!
    const { page } = await ui.post('/clock/advance', { seconds: '3661' })
    expect(flashOf(page)).toBe(
      `Advanced to 2026-03-01 10:01:01 (America/Sao_Paulo): one event ran charge ${id} (R$ 10,00) expired`,
    )
    expect(page).toContain('1 h 1 min 1 s ahead of real time')
  })
})
