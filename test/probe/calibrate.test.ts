// The probe against a "real service" with planted differences: it reports exactly those, and the
// scenario it writes makes the sandbox agree with the service on every row.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseScenarioText } from '../../src/scenarios/loader.js'
import type { RunningSandbox } from '../../src/server.js'
import {
  closedPort,
  probe,
  rowsWhere,
  startRealService,
  tempDir,
  type ProbeRun,
} from './helpers.js'

const CREDENTIALS = { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }
const FULL = {
  ...CREDENTIALS,
  createCharges: 2,
  transfers: true,
  largeBody: true,
  failOnDifference: true,
}

describe('probing a service that differs in style, TTL, time zone, content types and the insufficient-balance answer', () => {
  let service: RunningSandbox
  let first: ProbeRun
  let scenarioFile: string

  beforeAll(async () => {
    service = await startRealService({
      validation_errors: 'fastapi',
      charge_ttl_seconds: 900,
      timezone: 'Asia/Tokyo',
      insufficient_balance: 'failed',
      strict_content_type: false,
    })
    scenarioFile = join(tempDir(), 'calibrated.yaml')
    first = await probe(`${service.url}/api/v1`, { ...FULL, writeScenario: scenarioFile })
  })
  afterAll(() => service.close())

  it('reports exactly the planted differences, and exits 1 with --fail-on-difference', () => {
    expect(first.code).toBe(1)
    const validation = first.json.rows
      .filter((r: { group: string }) => r.group === 'validation')
      .map((r: { id: string }) => r.id)
    expect(validation.length).toBeGreaterThanOrEqual(13)
    expect(rowsWhere(first, 'differ')).toEqual(
      [
        ...validation,
        'order.malformed-json-no-credentials',
        'order.malformed-json-bad-credentials',
        'order.no-content-type',
        'charges.expiration-gap',
        'charges.ttl',
        'charges.timezone',
        'transfers.insufficient-balance',
      ].sort(),
    )
    expect(rowsWhere(first, 'not observable')).toEqual([])
    const row = (id: string) => first.json.rows.find((r: { id: string }) => r.id === id)
    expect(row('charges.ttl').target.observed).toEqual({ charge_ttl_seconds: 900 })
    expect(row('charges.timezone').target.observed).toEqual({ utc_offset: '+09:00' })
    expect(row('validation.amount-zero').target.observed.style).toBe('fastapi')
    expect(row('validation.amount-zero').sandbox.observed).toMatchObject({
      style: 'simple',
      detail: 'amount: must be an integer greater than 0',
    })
    // FastAPI 0.122-0.131 read a body without Content-Type as JSON: malformed, it is refused before authentication.
    expect(row('order.no-content-type').target.observed).toEqual({
      status: 422,
      body_read: 'as JSON',
    })
    expect(row('order.no-content-type').sandbox.observed).toEqual({
      status: 401,
      body_read: 'not as JSON',
    })
  })

  it('names the settings that close every difference, and nothing left to learn', () => {
    expect(first.json.settings_implied).toEqual({
      validation_errors: 'fastapi',
      strict_content_type: false,
      charge_ttl_seconds: 900,
      timezone: 'Etc/GMT-9',
      insufficient_balance: 'failed',
    })
    expect(first.json.learn_next).toEqual([])
    expect(first.out).toContain('charges.timezone')
    expect(first.out).toMatch(
      /charges\.ttl\s+DIFFER\s+charge_ttl_seconds 3600\s+charge_ttl_seconds 900/,
    )
  })

  it('says which requests created something on the target', () => {
    const changed = first.json.rows
      .filter((r: { changes?: string }) => r.changes === 'yes')
      .map((r: { id: string }) => r.id)
    // The service recorded the failed transfer (insufficient_balance: failed): flagged, though no money moved.
    expect(changed).toEqual([
      'transfers.insufficient-balance',
      'charges.body',
      'charges.payload-reuse',
    ])
    expect(first.out).toMatch(/transfers\.insufficient-balance: .*the target ACCEPTED it \(200\)/)
    expect(first.out).toMatch(/created charge [0-9A-Za-z]{32} \(100 cents\) on the target/)
  })

  it('writes a scenario that, loaded into a fresh sandbox, agrees with the service on every row', async () => {
    const written = readFileSync(scenarioFile, 'utf8')
    const scenario = parseScenarioText(written, scenarioFile)
    expect(scenario.settings).toMatchObject({
      validation_errors: 'fastapi',
      strict_content_type: false,
      charge_ttl_seconds: 900,
      timezone: 'Etc/GMT-9',
      insufficient_balance: 'failed',
    })
    expect(scenario.companies.map((c) => c.id)).toEqual(['loja-exemplo', 'loja-inativa'])
    const second = await probe(`${service.url}/api/v1`, { ...FULL, scenario: scenarioFile })
    expect(second.code).toBe(0)
    expect(rowsWhere(second, 'differ')).toEqual([])
    expect(rowsWhere(second, 'not observable')).toEqual([])
  })
})

describe('probing without credentials or flags', () => {
  it('sends only what needs nothing, and says what the rest needs', async () => {
    const service = await startRealService({})
    try {
      const run = await probe(`${service.url}/api/v1`)
      expect(run.code).toBe(0)
      expect(rowsWhere(run, 'differ')).toEqual([])
      const row = (id: string) => run.json.rows.find((r: { id: string }) => r.id === id)
      expect(row('auth.no-header').verdict).toBe('agree')
      expect(row('company.body').target).toEqual({
        unobservable: 'needs --client-id and --client-secret',
      })
      expect(row('charges.*').target.unobservable).toMatch(/needs --create-charges/)
      expect(
        run.json.exchanges.target.every(
          (e: { request: { method: string; url: string } }) =>
            e.request.method !== 'POST' || e.request.url.endsWith('/in'),
        ),
      ).toBe(true)
      expect(run.out).toContain('Nothing was created or changed on the target.')
    } finally {
      await service.close()
    }
  })
})

describe('what one observation cannot separate, and what no setting can say', () => {
  it('reports TTL and zone as not observable when the location cannot be read, and lists an upper-case merchant name to learn', async () => {
    // Nothing listens at the service's public URL: its locations cannot be fetched.
    const publicUrl = `http://127.0.0.1:${await closedPort()}`
    const service = await startRealService(
      {},
      { replace: [['name: Loja Exemplo Ltda', 'name: LOJA EXEMPLO LTDA']], publicUrl },
    )
    try {
      const scenarioFile = join(tempDir(), 'learn.yaml')
      const run = await probe(`${service.url}/api/v1`, {
        ...CREDENTIALS,
        createCharges: 1,
        writeScenario: scenarioFile,
      })
      const row = (id: string) => run.json.rows.find((r: { id: string }) => r.id === id)
      expect(row('charges.ttl').target.unobservable).toMatch(
        /^the location could not be read \(failed: connection refused\), so expiration_date − Date \(-7\d{3} s\) cannot be split/,
      )
      expect(row('charges.timezone').verdict).toBe('not observable')
      expect(row('charges.expiration-gap').verdict).toBe('agree')
      expect(row('charges.payload-reuse').target.unobservable).toBe('needs --create-charges 2')
      expect(rowsWhere(run, 'differ')).toEqual(['charges.merchant'])
      expect(run.json.learn_next).toEqual(['charges.merchant'])
      expect(run.out).toMatch(/Differences no setting can express[^\n]*\n- charges\.merchant/)
      const written = readFileSync(scenarioFile, 'utf8')
      expect(written).toMatch(
        /# Differences no setting can express[^\n]*\n# - charges\.merchant \(merchant name \(59\) and city \(60\)\): sandbox .*Mixed Case.*target .*UPPER CASE/,
      )
      expect(run.out).toContain(`SCENARIO=learn npm start`)
    } finally {
      await service.close()
    }
  })
})
