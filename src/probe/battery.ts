// The fixed battery: one request per check, sent alike to the sandbox and the target, each
// reduced to the rows it informs. Only the groups that the flags allow are built.
import { detailOf, errorAnswer, mediaType } from './observe.js'
import { locationShape, timestampShape, typeOf } from './shape.js'
import type { Group, Observation, ProbeRequest, Reply, SettingName } from './types.js'

export interface RowSpec {
  id: string
  topic: string
  setting?: SettingName
  observe(r: Reply, base: string): Observation
}

export interface Check {
  group: Group
  request: ProbeRequest
  rows: RowSpec[]
  needs?: 'credentials' | 'client-id'
  changes?: 'guarded'
  note?: string
}

export const MAX_AMOUNT = 999_999_999_999
/** Makes every amount and description check fail whatever the amount does: no charge is created. */
export const PAYLOAD_GUARD = 'pix-sandbox-probe-not-a-br-code'
const GUARD_NOTE = `sent with payload "${PAYLOAD_GUARD}" (refused by the contract) so that no charge can be created`
const TRANSFER_GUARD_NOTE = `sent with amount ${MAX_AMOUNT}, above any balance, so that no money can move even if the key were accepted`
export const PROBE_EMAIL = 'pix-sandbox-probe@example.com'

const json = (body: unknown) => ({ contentType: 'application/json', body: JSON.stringify(body) })
const one = (
  id: string,
  topic: string,
  observe: RowSpec['observe'],
  setting?: SettingName,
): RowSpec[] => [{ id, topic, observe, setting }]

const COMPANY = '/user/company'
const IN = '/hub/transactions/in'
const OUT = '/hub/transactions/out'

export interface BatteryFlags {
  largeBody: boolean
  transfers: boolean
}

export function battery(flags: BatteryFlags): Check[] {
  return [
    ...framework(flags),
    ...order(),
    ...auth(),
    ...company(),
    ...validation(),
    ...(flags.transfers ? transfers() : []),
  ]
}

function framework(flags: BatteryFlags): Check[] {
  const checks: Check[] = [
    {
      group: 'framework',
      request: { method: 'GET', path: '/pix-sandbox-probe/unknown-path', auth: { kind: 'none' } },
      rows: one('framework.not-found', 'unknown path: 404 body', errorAnswer()),
    },
    {
      group: 'framework',
      request: { method: 'DELETE', path: COMPANY, auth: { kind: 'none' } },
      rows: one('framework.wrong-method', 'wrong method: 405 and Allow', errorAnswer(['allow'])),
    },
    {
      group: 'framework',
      request: { method: 'GET', path: `${COMPANY}/?probe=1`, auth: { kind: 'none' } },
      rows: one('framework.trailing-slash', 'trailing slash: 307 and Location', (r, base) => ({
        status: r.status,
        location: locationShape(r.headers.location, base),
        body: r.text ? 'present' : 'empty',
      })),
    },
    {
      group: 'framework',
      request: { method: 'HEAD', path: COMPANY, auth: { kind: 'none' } },
      rows: one('framework.head', 'HEAD on the GET route', errorAnswer(['allow'])),
    },
  ]
  if (flags.largeBody) {
    const body = JSON.stringify({ amount: 100, description: 'x'.repeat(1024 * 1024) })
    checks.push({
      group: 'framework',
      request: {
        method: 'POST',
        path: IN,
        auth: { kind: 'none' },
        contentType: 'application/json',
        body,
      },
      rows: one('framework.large-body', 'body over 1 MiB: 413', errorAnswer()),
    })
  }
  return checks
}

function order(): Check[] {
  const malformed = { contentType: 'application/json', body: '{"amount": 100,' }
  const invalid = json({ amount: 0, payload: PAYLOAD_GUARD })
  const c = (
    id: string,
    topic: string,
    auth: ProbeRequest['auth'],
    body: { contentType: string; body: string },
    setting?: SettingName,
  ): Check => ({
    group: 'order',
    request: { method: 'POST', path: IN, auth, ...body },
    rows: one(id, topic, errorAnswer(), setting),
  })
  return [
    c(
      'order.malformed-json-no-credentials',
      'malformed JSON without credentials',
      { kind: 'none' },
      malformed,
      'validation_errors',
    ),
    c(
      'order.invalid-body-no-credentials',
      'schema-invalid body without credentials',
      { kind: 'none' },
      invalid,
    ),
    c(
      'order.malformed-json-bad-credentials',
      'malformed JSON with bad credentials',
      { kind: 'unknown-client' },
      malformed,
      'validation_errors',
    ),
    c(
      'order.invalid-body-bad-credentials',
      'schema-invalid body with bad credentials',
      { kind: 'unknown-client' },
      invalid,
    ),
    c(
      'order.text-plain-no-credentials',
      'a JSON body sent as text/plain, without credentials',
      { kind: 'none' },
      { contentType: 'text/plain', body: '{"amount": 100}' },
    ),
    {
      // Malformed JSON without a Content-Type: a server that reads it as JSON refuses it before
      // authentication (422), one that does not asks for credentials first (401).
      group: 'order',
      request: { method: 'POST', path: IN, auth: { kind: 'none' }, body: '{"amount": 100,' },
      rows: one(
        'order.no-content-type',
        'malformed JSON without Content-Type, without credentials: read as JSON or not',
        noContentType,
        'strict_content_type',
      ),
    },
  ]
}

function noContentType(r: Reply): Observation {
  const read = r.status === 422 ? 'as JSON' : r.status === 401 ? 'not as JSON' : 'unclear'
  return { status: r.status, body_read: read }
}

function auth(): Check[] {
  const c = (
    id: string,
    topic: string,
    a: ProbeRequest['auth'],
    needs?: Check['needs'],
  ): Check => ({
    group: 'auth',
    request: { method: 'GET', path: COMPANY, auth: a },
    rows: one(id, topic, authAnswer),
    needs,
  })
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  return [
    c('auth.no-header', 'no Authorization header', { kind: 'none' }),
    c('auth.other-scheme', 'another scheme (Bearer)', {
      kind: 'header',
      value: 'Bearer pix-sandbox-probe',
    }),
    c('auth.bad-base64', 'Basic with bad base64', {
      kind: 'header',
      value: 'Basic %%not-base64%%',
    }),
    c('auth.no-colon', 'Basic without ":"', {
      kind: 'header',
      value: `Basic ${b64('pix-sandbox-probe-no-colon')}`,
    }),
    c('auth.unknown-client', 'unknown client_id', { kind: 'unknown-client' }),
    c('auth.wrong-secret', 'known client_id, wrong secret', { kind: 'wrong-secret' }, 'client-id'),
    c(
      'auth.lowercase-scheme',
      'your credentials with the scheme in lower case (basic)',
      { kind: 'client', variant: 'lowercase-scheme' },
      'credentials',
    ),
    c(
      'auth.unpadded-base64',
      'your credentials in base64 without = padding',
      { kind: 'client', variant: 'unpadded' },
      'credentials',
    ),
  ]
}

/** Status, `detail` and the challenge; never the body of a 200, whose values differ by nature. */
function authAnswer(r: Reply): Observation {
  const detail = r.status === 200 ? undefined : detailOf(r.json)
  return {
    status: r.status,
    ...(detail !== undefined && { detail }),
    'www-authenticate': r.headers['www-authenticate'] ?? 'absent',
  }
}

function company(): Check[] {
  return [
    {
      group: 'company',
      request: { method: 'GET', path: COMPANY, auth: { kind: 'client' } },
      needs: 'credentials',
      rows: [
        {
          id: 'company.body',
          topic: 'company body: fields and types',
          observe: (r) => {
            const body = (r.json ?? {}) as Record<string, unknown>
            return {
              status: r.status,
              content_type: mediaType(r),
              fields: Object.keys(body).sort(),
              api_active: typeOf(body.api_active),
            }
          },
        },
        {
          id: 'company.timestamps',
          topic: 'company timestamps: format and fraction digits',
          observe: (r) => {
            const body = (r.json ?? {}) as Record<string, unknown>
            return {
              created_at: timestampShape(body.created_at),
              updated_at: timestampShape(body.updated_at),
            }
          },
        },
      ],
    },
  ]
}

function validation(): Check[] {
  const charge = (id: string, topic: string, body: Record<string, unknown>): Check => ({
    group: 'validation',
    request: {
      method: 'POST',
      path: IN,
      auth: { kind: 'client' },
      ...json({ ...body, payload: PAYLOAD_GUARD }),
    },
    rows: one(id, topic, errorAnswer(), 'validation_errors'),
    needs: 'credentials',
    note: GUARD_NOTE,
  })
  const key = (id: string, topic: string, pix_type: string, pix_key: string): Check => ({
    group: 'validation',
    request: {
      method: 'POST',
      path: OUT,
      auth: { kind: 'client' },
      ...json({ amount: MAX_AMOUNT, pix_type, pix_key }),
    },
    rows: one(id, topic, errorAnswer(), 'validation_errors'),
    needs: 'credentials',
    changes: 'guarded',
    note: TRANSFER_GUARD_NOTE,
  })
  return [
    charge('validation.amount-missing', 'amount missing', {}),
    charge('validation.amount-zero', 'amount 0', { amount: 0 }),
    charge('validation.amount-negative', 'amount -100', { amount: -100 }),
    charge('validation.amount-string', 'amount "abc"', { amount: 'abc' }),
    charge('validation.amount-float', 'amount 10.5', { amount: 10.5 }),
    charge('validation.amount-huge', `amount ${MAX_AMOUNT + 1}`, { amount: MAX_AMOUNT + 1 }),
    charge('validation.amount-coercion', 'amount "100" (coercion)', { amount: '100' }),
    charge('validation.description-141', 'description of 141 characters', {
      amount: 100,
      description: 'd'.repeat(141),
    }),
    key('validation.key-cpf', 'pix_type CPF with an e-mail key', 'CPF', PROBE_EMAIL),
    key('validation.key-cnpj', 'pix_type CNPJ with an 8-digit key', 'CNPJ', '12345678'),
    key('validation.key-email', 'pix_type EMAIL with a phone key', 'EMAIL', '+5511999999999'),
    key('validation.key-phone', 'pix_type PHONE with an e-mail key', 'PHONE', PROBE_EMAIL),
    key('validation.cpf-check-digit', 'CPF with a wrong check digit', 'CPF', '52998224726'),
  ]
}

function transfers(): Check[] {
  return [
    {
      group: 'transfers',
      request: {
        method: 'POST',
        path: OUT,
        auth: { kind: 'client' },
        ...json({ amount: MAX_AMOUNT, pix_type: 'EMAIL', pix_key: PROBE_EMAIL }),
      },
      needs: 'credentials',
      changes: 'guarded',
      note: TRANSFER_GUARD_NOTE,
      rows: one(
        'transfers.insufficient-balance',
        'transfer above the balance',
        (r) => {
          const body = (r.json ?? {}) as Record<string, unknown>
          if (r.status === 200)
            return { status: 200, transfer_status: body.status, message: body.message }
          return errorAnswer()(r)
        },
        'insufficient_balance',
      ),
    },
  ]
}
