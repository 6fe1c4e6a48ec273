// Configuration from the environment (README.md#configuration), validated once at start so
// a typo fails loudly with the variable's name instead of surfacing later as odd behaviour.
import { z } from 'zod'
import type { Micros } from './clock.js'
import { parseIsoMicros } from './domain/time.js'

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

// The BR Code location field (26-25) holds at most 77 characters: host + this path + the id.
export const LOCATION_PATH = '/pix/qr/v2/'
export const LOCATION_ID_LENGTH = 25
const MAX_LOCATION_BASE = 77 - LOCATION_ID_LENGTH - LOCATION_PATH.length
/** Companies a sandbox holds at most unless MAX_COMPANIES says otherwise: far more than a test suite makes. */
export const DEFAULT_MAX_COMPANIES = 10_000
/** 10000-01-01T00:00:00Z: end-to-end ids write the year in four digits. */
const MAX_START_US = Date.UTC(10000, 0, 1) * 1000

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE: z.string().min(1).default('./data/pix-sandbox.db'),
  SCENARIO: z.string().min(1).default('default'),
  SCENARIOS_DIR: z.string().min(1).default('./scenarios'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://localhost:8080' })
    .optional(),
  SANDBOX_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SEED: z.string().min(1).optional(),
  START_TIME: z
    .string()
    .transform((text, ctx) => {
      const us = parseIsoMicros(text.trim())
      if (us !== undefined && us >= 0 && us < MAX_START_US) return us
      ctx.addIssue({
        code: 'custom',
        message: `"${text}" is not an ISO 8601 instant with its time zone between 1970 and 9999, such as 2026-03-01T12:00:00Z or 2026-03-01T09:00:00-03:00`,
      })
      return z.NEVER
    })
    .optional(),
  WEBHOOK_ALLOWED_HOSTS: z.string().optional(),
  ALLOWED_HOSTS: z
    .string()
    .transform((text, ctx) => {
      const entries = text
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean)
      const bad = entries.find(
        (h) =>
          h !== '*' &&
          !/^(\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])$/.test(
            h,
          ),
      )
      if (bad === undefined) return entries
      ctx.addIssue({
        code: 'custom',
        message: `"${bad}" is not a host name: give names such as app.test, .example.com (it and every name under it) or *, without scheme or port`,
      })
      return z.NEVER
    })
    .optional(),
  MAX_COMPANIES: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_MAX_COMPANIES),
})

/** Every variable the server reads (the Python package's start() leaves them out of its server's environment). */
export const SETTING_VARIABLES = Object.keys(envSchema.shape)

export interface Config {
  port: number
  host: string
  database: string
  scenario: string
  scenariosDir: string
  /** PUBLIC_URL without a trailing slash; when unset, `http://localhost:<bound port>`. */
  publicUrl: string | undefined
  adminToken: string | undefined
  logLevel: LogLevel
  seed: string | undefined
  /** START_TIME: a fresh store's clock starts frozen at this instant (also at reset). */
  startTime: Micros | undefined
  /** MAX_COMPANIES: companies the sandbox holds at most (tenants and scenarios alike). */
  maxCompanies: number
  /** Hosts (`name` or `name:port`) webhooks may be sent to; undefined allows any. */
  webhookAllowedHosts: string[] | undefined
  /** ALLOWED_HOSTS: Host names the server answers to beyond loopback's and PUBLIC_URL's (http/host-guard.ts). */
  allowedHosts: string[] | undefined
}

export class ConfigError extends Error {}

/** Reads the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  )
  const parsed = envSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const publicUrl = e.PUBLIC_URL?.replace(/\/+$/, '')
  const base = locationBase(publicUrl ?? 'http://localhost:65535')
  if (base.length > MAX_LOCATION_BASE) {
    throw new ConfigError(
      `invalid configuration:\n  PUBLIC_URL: "${base}" is ${base.length} characters; a BR Code location ` +
        `leaves room for at most ${MAX_LOCATION_BASE} before "${LOCATION_PATH}<id>"`,
    )
  }
  return {
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE,
    scenario: e.SCENARIO,
    scenariosDir: e.SCENARIOS_DIR,
    publicUrl,
    adminToken: e.SANDBOX_ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    seed: e.SEED,
    startTime: e.START_TIME,
    maxCompanies: e.MAX_COMPANIES,
    webhookAllowedHosts: e.WEBHOOK_ALLOWED_HOSTS?.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    allowedHosts: e.ALLOWED_HOSTS?.length ? e.ALLOWED_HOSTS : undefined,
  }
}

export const publicUrlFor = (config: Config, port: number): string =>
  config.publicUrl ?? `http://localhost:${port}`

/** Hosts that mean "every interface": this machine reaches them at its IPv4 loopback. */
const ANY_HOST = new Set(['0.0.0.0', '::', '127.0.0.1'])

/**
 * The address the banner prints for a browser or a client's base_url: PUBLIC_URL when set, else
 * `http://127.0.0.1:<port>` (the README's) when listening there or on every interface.
 */
export function addressFor(config: Config, port: number): string {
  if (config.publicUrl) return config.publicUrl
  const host = ANY_HOST.has(config.host)
    ? '127.0.0.1'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host
  return `http://${host}:${port}`
}

/** The public URL as a BR Code location wants it: no scheme, no trailing slash. */
export function locationBase(publicUrl: string): string {
  return publicUrl.replace(/^https?:\/\//i, '').replace(/\/+$/, '')
}
