// Scenario files (docs/CONTROL-PLANE.md#scenario-files) are validated whole, with errors that name the file, the path and the problem.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  listScenarios,
  parseScenarioText,
  readScenario,
  ScenarioError,
} from '../../src/scenarios/loader.js'
import { AUTH, storeSnapshot, SCENARIOS_DIR, startTestSandbox } from '../harness.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'scenarios-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ScenarioError)
    return (err as ScenarioError).problems
  }
  throw new Error('expected a ScenarioError')
}

describe('scenario files', () => {
  it('loads the default scenario with every credential the README lists', () => {
    const s = readScenario(SCENARIOS_DIR, 'default')
    const clients = s.companies.flatMap((c) =>
      c.users.flatMap((u) => u.credentials.map((cr) => `${cr.client_id}:${cr.client_secret}`)),
    )
    expect(clients.sort()).toEqual(
      [
        'sandbox-client:sandbox-secret',
        'no-provider:no-provider-secret',
        'charges-only:charges-only-secret',
        'inactive:inactive-secret',
        'production-client:production-secret',
        'empty-balance:empty-balance-secret',
      ].sort(),
    )
  })

  it('names the file, the path and the line of a wrong value', () => {
    const file = join(dir, 'broken.yaml')
    writeFileSync(
      file,
      [
        'description: broken',
        'companies:',
        '  - id: acme',
        '    name: Acme',
        '    users:',
        '      - id: acme-user',
        '        balance: -5',
        '',
      ].join('\n'),
    )
    const err = (() => {
      try {
        readScenario(dir, 'broken')
      } catch (e) {
        return e as ScenarioError
      }
    })()
    expect(err).toBeInstanceOf(ScenarioError)
    expect(err!.source).toBe(file)
    expect(err!.message).toContain(file)
    expect(err!.problems).toEqual([
      'companies[0].users[0].balance (line 7): Too small: expected number to be >=0',
    ])
  })

  it('names unknown fields (a typo must not be ignored silently)', () => {
    const problems = problemsOf(() =>
      parseScenarioText('settings:\n  charge_ttl: 60\n', 'typo.yaml'),
    )
    expect(problems).toEqual(['settings (line 2): unknown field(s) "charge_ttl"'])
  })

  it('reports YAML syntax errors with their line', () => {
    const problems = problemsOf(() =>
      parseScenarioText('companies:\n  - id: a\n   name: b\n', 'syntax.yaml'),
    )
    expect(problems[0]).toMatch(/^line 3: /)
  })

  it('refuses duplicate ids, keys that do not match their type, unknown time zones', () => {
    const doc = `
settings: { timezone: Mars/Olympus_Mons }
companies:
  - id: a
    name: A
    users: [{ id: u1, credentials: [{ client_id: same, client_secret: x }] }]
  - id: a
    name: B
    users: [{ id: u2, credentials: [{ client_id: same, client_secret: y }] }]
pix_keys:
  - { key: "123", type: CPF }
`
    expect(problemsOf(() => parseScenarioText(doc, 'dup.yaml'))).toEqual([
      'settings.timezone (line 2): must be an IANA time zone such as America/Sao_Paulo',
      'pix_keys[0].key (line 11): CPF key must be a CPF of 11 digits with valid check digits',
      'companies[1].id (line 7): duplicate company id "a"',
      'companies[1].users[0].credentials[0].client_id (line 9): duplicate client_id "same"',
    ])
  })

  it('accepts JSON documents', () => {
    writeFileSync(
      join(dir, 'j.json'),
      JSON.stringify({ description: 'json one', settings: { charge_ttl_seconds: 5 } }),
    )
    expect(readScenario(dir, 'j').settings).toEqual({ charge_ttl_seconds: 5 })
  })

  it('refuses names that could leave the folder', () => {
    expect(problemsOf(() => readScenario(dir, '../etc/passwd'))[0]).toMatch(/no scenario named/)
  })

  it('lists scenarios with their descriptions, flagging broken ones', () => {
    writeFileSync(join(dir, 'good.yaml'), 'description: A good one\n')
    writeFileSync(join(dir, 'bad.yaml'), 'settings: 5\n')
    expect(listScenarios(dir)).toEqual([
      { name: 'bad', description: expect.stringMatching(/^\(invalid: .*settings/) },
      { name: 'good', description: 'A good one' },
    ])
  })

  it('reference the JSON Schema generated from the same definition (kept up to date: test/package/generated.test.ts)', () => {
    expect(readFileSync(join(SCENARIOS_DIR, 'default.yaml'), 'utf8')).toContain(
      '$schema=./scenario.schema.json',
    )
  })
})

describe('applying a scenario', () => {
  it('is all or nothing: a conflicting document changes nothing', async () => {
    const sb = await startTestSandbox()
    try {
      const before = storeSnapshot(sb)
      const companies = () =>
        sb.sandbox.store.db.prepare('SELECT count(*) FROM companies').pluck().get()
      const count = companies()
      expect(() =>
        sb.apply({
          settings: { charge_ttl_seconds: 5 },
          companies: [
            {
              id: 'new-co',
              name: 'New',
              users: [
                {
                  id: 'n1',
                  balance: 500,
                  credentials: [{ client_id: 'sandbox-client', client_secret: 'x' }],
                },
              ],
            },
          ],
        }),
      ).toThrow(/client_id "sandbox-client" is already in use/)
      expect(companies()).toBe(count)
      expect(storeSnapshot(sb)).toEqual(before)
      expect(sb.sandbox.store.setup.settings().charge_ttl_seconds).toBe(3600)
      expect((await sb.request('GET', '/api/v1/user/company', { auth: AUTH.main })).status).toBe(
        200,
      )
    } finally {
      await sb.close()
    }
  })
})
