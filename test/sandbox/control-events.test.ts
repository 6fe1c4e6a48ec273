// What the control plane's own changes write to the event log (and so to webhooks and the
// dashboard): the type and data of each event, the ids' prefixes, and the 404 texts of unknown
// companies. Over HTTP, as a QA script reads them from GET /_sandbox/events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox()
})
afterAll(async () => {
  await sb.close()
})

interface EventView {
  type: string
  company_id: string | null
  data: Record<string, unknown>
}
const lastEvent = async (type: string): Promise<EventView> => {
  const res = await sb.admin('GET', `/events?type=${type}&limit=500`)
  expect(res.status).toBe(200)
  const events = (res.body as { data: EventView[] }).data
  expect(events.length).toBeGreaterThan(0)
  return events.at(-1)!
}

describe('events of the control plane', () => {
  it('a new tenant: prefixed ids, a company.created event with its ids and name, and the default city in its BR Codes', async () => {
    const res = await sb.admin('POST', '/companies', { name: 'Eventos Ltda' })
    expect(res.status).toBe(201)
    const t = res.body as { company_id: string; user_id: string; client_id: string; token: string }
    expect(t.company_id).toMatch(/^co_\w{24}$/)
    expect(t.user_id).toMatch(/^usr_\w{24}$/)
    expect(t.client_id).toMatch(/^ck_\w{24}$/)
    const e = await lastEvent('company.created')
    expect(e.company_id).toBe(t.company_id)
    expect(e.data).toEqual({ company_id: t.company_id, user_id: t.user_id, name: 'Eventos Ltda' })
    const charge = await sb.request('POST', '/api/v1/hub/transactions/in', {
      auth: `Basic ${t.token}`,
      json: { amount: 100 },
    })
    expect(charge.status).toBe(200)
    expect((charge.body as { qr_code: string }).qr_code).toContain('5912Eventos Ltda6009Sao Paulo')
  })

  it('a changed company: a company.updated event with its name and api_active', async () => {
    const { company_id } = (await sb.admin('POST', '/companies', { name: 'Antes Ltda' })).body as {
      company_id: string
    }
    expect(
      (
        await sb.admin('PATCH', `/companies/${company_id}`, {
          name: 'Depois Ltda',
          api_active: false,
        })
      ).status,
    ).toBe(200)
    const e = await lastEvent('company.updated')
    expect(e.company_id).toBe(company_id)
    expect(e.data).toEqual({ company_id, name: 'Depois Ltda', api_active: false })
  })

  it('a queued outcome and an injected fault: events carrying what was asked', async () => {
    const { company_id } = (await sb.admin('POST', '/companies', { name: 'Filas Ltda' })).body as {
      company_id: string
    }
    const outcome = await sb.admin('POST', '/outcomes', {
      status: 'failed',
      message: 'Fila cheia',
      times: 2,
      match: { amount: 777 },
      company_id,
    })
    expect(outcome.status).toBe(201)
    const o = await lastEvent('outcome.queued')
    expect(o.company_id).toBe(company_id)
    expect(o.data).toMatchObject({
      status: 'failed',
      message: 'Fila cheia',
      match: { amount: 777 },
      times: 2,
    })
    expect(o.data.id).toEqual(expect.any(Number))

    expect(
      (
        await sb.admin('POST', '/faults', {
          operation: 'charge',
          status: 503,
          delay_ms: 5,
          times: 3,
          company_id,
        })
      ).status,
    ).toBe(201)
    const f = await lastEvent('fault.injected')
    expect(f.company_id).toBe(company_id)
    expect(f.data).toMatchObject({ operation: 'charge', status: 503, delay_ms: 5, times: 3 })
  })

  it.each([
    ['PATCH', '/companies/co_unknown', { name: 'X Ltda' }],
    ['DELETE', '/companies/co_unknown', undefined],
    ['POST', '/outcomes', { status: 'failed', company_id: 'co_unknown' }],
    ['POST', '/faults', { operation: 'charge', status: 500, company_id: 'co_unknown' }],
  ])('%s %s for an unknown company answers 404 "Company not found"', async (method, path, json) => {
    const res = await sb.admin(method, path, json)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ detail: 'Company not found' })
  })
})
