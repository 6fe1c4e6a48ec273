import { describe, expect, it } from 'vitest'
import { configFromFlags } from '../../src/cli/flags.js'
import { addressFor, ConfigError, loadConfig } from '../../src/config.js'

describe('configuration from the environment (README.md#configuration)', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      database: './data/pix-sandbox.db',
      scenario: 'default',
      scenariosDir: './scenarios',
      publicUrl: undefined,
      adminToken: undefined,
      logLevel: 'info',
      seed: undefined,
      startTime: undefined,
      maxCompanies: 10_000,
      webhookAllowedHosts: undefined,
      allowedHosts: undefined,
    })
  })

  it('reads every variable, treating empty ones as unset', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE: ':memory:',
      PUBLIC_URL: 'https://pix.example.com/',
      SEED: '42',
      LOG_LEVEL: 'debug',
      SANDBOX_ADMIN_TOKEN: '',
      START_TIME: '2026-03-01T09:00:00-03:00',
      MAX_COMPANIES: '50',
    })
    expect(c).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      database: ':memory:',
      publicUrl: 'https://pix.example.com',
      seed: '42',
      logLevel: 'debug',
      adminToken: undefined,
      startTime: Date.UTC(2026, 2, 1, 12) * 1000,
      maxCompanies: 50,
    })
  })

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', PUBLIC_URL: 'ftp://x' })).toThrow(
      ConfigError,
    )
    // Outside a catch: a loadConfig that stopped throwing fails here instead of checking nothing.
    let msg = ''
    try {
      loadConfig({
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
        SANDBOX_ADMIN_TOKEN: 'short',
        MAX_COMPANIES: '0',
        START_TIME: 'noon',
      })
    } catch (err) {
      msg = (err as Error).message
    }
    for (const name of [
      'PORT',
      'LOG_LEVEL',
      'PUBLIC_URL',
      'SANDBOX_ADMIN_TOKEN',
      'MAX_COMPANIES',
      'START_TIME',
    ])
      expect(msg).toContain(name)
  })

  it('reads ALLOWED_HOSTS (or --allowed-hosts) as names without scheme or port, refusing anything else', () => {
    expect(
      loadConfig({ ALLOWED_HOSTS: ' Sandbox.Internal, .dev.test ,, [fe80::1]' }).allowedHosts,
    ).toEqual(['sandbox.internal', '.dev.test', '[fe80::1]'])
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toEqual(['*'])
    expect(loadConfig({ ALLOWED_HOSTS: ' , ' }).allowedHosts).toBeUndefined()
    expect(
      configFromFlags({ allowedHosts: 'app.test' }, { ALLOWED_HOSTS: 'other.test' }).config
        .allowedHosts,
    ).toEqual(['app.test'])
    for (const bad of ['http://app.test', 'app.test:8080', 'a b', '*.app.test']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(
        `ALLOWED_HOSTS: "${bad}" is not a host name`,
      )
    }
    expect(() => configFromFlags({ allowedHosts: 'app.test:1' }, {})).toThrow(
      '  --allowed-hosts: "app.test:1" is not a host name',
    )
  })

  it('refuses a PUBLIC_URL too long for a BR Code location (77 characters)', () => {
    expect(() => loadConfig({ PUBLIC_URL: `https://${'a'.repeat(40)}.example.com` })).toThrow(
      /PUBLIC_URL.*at most 41/,
    )
  })
})

describe('the address the banner prints', () => {
  it("is the README's loopback address, PUBLIC_URL when set, or the one host listened on", () => {
    const at = (env: Record<string, string>) => addressFor(loadConfig(env), 8080)
    expect(at({})).toBe('http://127.0.0.1:8080')
    expect(at({ HOST: '0.0.0.0' })).toBe('http://127.0.0.1:8080')
    expect(at({ HOST: '::' })).toBe('http://127.0.0.1:8080')
    expect(at({ HOST: '192.168.0.10' })).toBe('http://192.168.0.10:8080')
    expect(at({ HOST: '::1' })).toBe('http://[::1]:8080')
    expect(at({ PUBLIC_URL: 'https://pix.example.com/' })).toBe('https://pix.example.com')
  })
})
