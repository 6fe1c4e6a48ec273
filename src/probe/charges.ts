// --create-charges: creates real (small) charges on both sides and reads their shape, the
// location behind the code, and from it the charge lifetime and the time zone, apart.
import { crc16, parseBrCode } from '../pix/brcode.js'
import { field, parseTlv } from '../pix/tlv.js'
import { PROBE_EMAIL } from './battery.js'
import { curlFor } from './curl.js'
import type { Side } from './http.js'
import { errorAnswer, mediaType, unusable } from './observe.js'
import { makeRow, unobservable, type RowMeta } from './rows.js'
import { idShape, nameShape, textShape, timestampShape } from './shape.js'
import { offsetText } from './zones.js'
import type { Answer, Exchange, Observation, ProbeRequest, Row, SettingName } from './types.js'

const AMOUNT = 100
const CHARGE: ProbeRequest = {
  method: 'POST',
  path: '/hub/transactions/in',
  auth: { kind: 'client' },
  contentType: 'application/json',
  body: JSON.stringify({ amount: AMOUNT, description: 'pix-sandbox probe (safe to ignore)' }),
}
/** Seconds of clock jitter between the charge's creation and its Date header. */
const JITTER_S = 2

interface Charge {
  problem?: string
  body: Record<string, unknown>
  exchange: Exchange
  code?: ReturnType<typeof parseBrCode>
  location?: string
  /** expiration_date minus the Date header, in seconds: the TTL plus the zone's offset. */
  expiryGap?: number
  ttl?: number
  ttlProblem?: string
  /** What the location answered: its media type and format. */
  cob?: Observation
}

type Spec = {
  id: string
  topic: string
  setting?: SettingName
  observe(c: Charge): Observation | string
  same?(a: Observation, b: Observation): boolean
}

const SPECS: Spec[] = [
  {
    id: 'charges.body',
    topic: 'charge answer: fields and status',
    observe: (c) => ({ fields: Object.keys(c.body).sort(), status: c.body.status }),
  },
  {
    id: 'charges.transaction-id',
    topic: 'transaction_id length and alphabet',
    observe: (c) => ({ transaction_id: idShape(c.body.transaction_id) }),
  },
  {
    id: 'charges.qr-kind',
    topic: 'qr_code: valid, static or dynamic',
    observe: (c) => ({ valid_br_code: !!c.code, kind: kindOf(c.body.qr_code) }),
  },
  {
    id: 'charges.field-54',
    topic: 'qr_code field 54 (amount)',
    observe: (c) => ({
      field_54:
        c.code?.amount === undefined
          ? 'absent'
          : c.code.amount === AMOUNT
            ? 'the amount'
            : `another amount (${c.code.amount})`,
    }),
  },
  {
    id: 'charges.location',
    topic: 'location: host and path shape',
    observe: (c) => ({ location: locationPattern(c.location) }),
  },
  {
    id: 'charges.location-payload',
    topic: 'location answer: media type, format, status',
    observe: (c) => c.cob ?? c.ttlProblem!,
  },
  {
    id: 'charges.merchant',
    topic: 'merchant name (59) and city (60)',
    observe: (c) => ({
      name: textShape(c.code?.merchantName, 25),
      city: textShape(c.code?.merchantCity, 15),
    }),
  },
  {
    id: 'charges.qr-code-name',
    topic: 'qr_code_name pattern',
    observe: (c) => ({ qr_code_name: nameShape(c.body.qr_code_name, c.code?.merchantName) }),
  },
  {
    id: 'charges.expiration-format',
    topic: 'expiration_date format',
    observe: (c) => ({ expiration_date: timestampShape(c.body.expiration_date) }),
  },
  {
    id: 'charges.expiration-gap',
    topic: 'expiration_date minus Date header (TTL + zone offset)',
    observe: (c) =>
      c.expiryGap === undefined
        ? 'no readable expiration_date or Date header'
        : { seconds: c.expiryGap },
    same: (a, b) => Math.abs((a.seconds as number) - (b.seconds as number)) <= JITTER_S,
  },
  {
    id: 'charges.ttl',
    topic: 'charge lifetime (calendario.expiracao)',
    setting: 'charge_ttl_seconds',
    observe: (c) => (c.ttl === undefined ? c.ttlProblem! : { charge_ttl_seconds: c.ttl }),
  },
  {
    id: 'charges.timezone',
    topic: 'time zone of expiration_date (UTC offset)',
    setting: 'timezone',
    observe: (c) =>
      c.ttl === undefined || c.expiryGap === undefined
        ? (c.ttlProblem ?? 'no expiration gap')
        : { utc_offset: offsetText(c.expiryGap - c.ttl) },
  },
]

export const CHARGE_ROW_IDS = [...SPECS.map((s) => s.id), 'charges.payload-reuse']

export async function chargeRows(sandbox: Side, target: Side, count: number): Promise<Row[]> {
  const meta = (
    s: { id: string; topic: string; setting?: SettingName },
    req = CHARGE,
  ): RowMeta => ({
    id: s.id,
    group: 'charges',
    topic: s.topic,
    sent: curlFor(req),
    ...(s.setting && { setting: s.setting }),
  })
  if (!target.hasCredentials) {
    return SPECS.map((s) =>
      makeRow(
        meta(s),
        unobservable('not sent'),
        unobservable('needs --client-id and --client-secret'),
      ),
    )
  }
  const [mine, theirs] = [await createCharge(sandbox), await createCharge(target)]
  const answer = (c: Charge, s: Spec): Answer => {
    if (c.problem) return unobservable(c.problem)
    try {
      const o = s.observe(c)
      return typeof o === 'string' ? unobservable(o) : { observed: o }
    } catch {
      return unobservable(
        `an answer the probe cannot read: ${JSON.stringify(c.body).slice(0, 200)}`,
      )
    }
  }
  const rows = SPECS.map((s) => makeRow(meta(s), answer(mine, s), answer(theirs, s), s.same))
  markCreated(rows[0]!, theirs)
  const reuse = {
    id: 'charges.payload-reuse',
    topic: 'payload: a valid static code is reused as qr_code',
  }
  const reuseReq = payloadRequest()
  if (count < 2)
    rows.push(
      makeRow(
        meta(reuse, reuseReq),
        unobservable('not sent'),
        unobservable('needs --create-charges 2'),
      ),
    )
  else {
    const row = makeRow(
      meta(reuse, reuseReq),
      await payloadReuse(sandbox, reuseReq),
      await payloadReuse(target, reuseReq),
    )
    rows.push(markCreated(row, { exchange: target.exchanges[target.exchanges.length - 1]! }))
  }
  return rows
}

/** The row of a request that reached the target says so, with the id it created if any. */
function markCreated(row: Row, c: { exchange: Exchange }): Row {
  if (!c.exchange.reply) return row
  row.changes = 'yes'
  const id = (c.exchange.reply.json as { transaction_id?: unknown } | undefined)?.transaction_id
  row.note =
    c.exchange.reply.status === 200 && typeof id === 'string'
      ? `created charge ${id} (${AMOUNT} cents) on the target`
      : `no charge created (status ${c.exchange.reply.status})`
  return row
}

async function createCharge(side: Side): Promise<Charge> {
  const exchange = await side.send(CHARGE)
  const reason = unusable(exchange)
  if (reason) return { problem: reason, body: {}, exchange }
  const r = exchange.reply!
  const body = (r.json && typeof r.json === 'object' ? r.json : {}) as Record<string, unknown>
  if (r.status !== 200)
    return { problem: `no charge: ${JSON.stringify(errorAnswer()(r))}`, body, exchange }
  const code = typeof body.qr_code === 'string' ? parseBrCode(body.qr_code) : null
  const location = code?.location
  const expires =
    typeof body.expiration_date === 'string' ? Date.parse(`${body.expiration_date}Z`) : NaN
  const date = Date.parse(r.headers.date ?? '')
  const charge: Charge = {
    body,
    exchange,
    code,
    location,
    ...(Number.isFinite(expires - date) && { expiryGap: Math.round((expires - date) / 1000) }),
  }
  await readLifetime(side, charge)
  return charge
}

/** The CobPayload behind the location (a JWS, or plain JSON) holds `calendario.expiracao`. */
async function readLifetime(side: Side, c: Charge): Promise<void> {
  const cannot = (why: string) => {
    c.ttlProblem = `the location could not be read (${why}), so expiration_date − Date (${c.expiryGap ?? '?'} s) cannot be split into TTL and zone offset`
  }
  if (!c.location) return cannot('the code has no location')
  const scheme = side.base.startsWith('https:') ? 'https' : 'http'
  const ex = await side.send({
    method: 'GET',
    path: `${scheme}://${c.location}`,
    absolute: true,
    auth: { kind: 'none' },
  })
  const reason = unusable(ex)
  if (reason) return cannot(reason)
  if (ex.reply!.status !== 200) return cannot(`status ${ex.reply!.status}`)
  const { format, payload } = decodeCob(ex.reply!.text)
  const cob = payload as { calendario?: { expiracao?: unknown }; status?: unknown } | undefined
  c.cob = { content_type: mediaType(ex.reply!), format, status: cob?.status ?? 'absent' }
  const ttl = cob?.calendario?.expiracao
  if (typeof ttl !== 'number') return cannot('no calendario.expiracao in it')
  c.ttl = ttl
}

/** A compact JWS (its payload and `alg`), or plain JSON. */
function decodeCob(text: string): { format: string; payload?: unknown } {
  const parts = text.trim().split('.')
  try {
    if (parts.length !== 3) return { format: 'JSON', payload: JSON.parse(text) }
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as {
      alg?: unknown
    }
    return {
      format: `JWS (${String(header.alg)})`,
      payload: JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')),
    }
  } catch {
    return { format: 'neither JSON nor a JWS' }
  }
}

const kindOf = (qr: unknown) => {
  const poi = typeof qr === 'string' ? parseTlv(qr)?.fields.get('01') : undefined
  return poi === '12' ? 'dynamic (01=12)' : poi === '11' ? 'static (01=11)' : 'no field 01'
}

function locationPattern(location: string | undefined): string {
  if (!location) return 'absent'
  const slash = location.indexOf('/')
  if (slash < 0) return `<host> only`
  const segments = location.slice(slash).split('/')
  const last = segments.pop() ?? ''
  return `<host>${segments.join('/')}/<${idShape(last)}>`
}

/** A valid static BR Code for the probe's own e-mail key, with the probe's amount. */
export function staticCode(): string {
  const body =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', PROBE_EMAIL)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', '1.00') +
    field('58', 'BR') +
    field('59', 'PIX SANDBOX PROBE') +
    field('60', 'SAO PAULO') +
    field('62', field('05', '***')) +
    '6304'
  return body + crc16(body)
}

function payloadRequest(): ProbeRequest {
  return { ...CHARGE, body: JSON.stringify({ amount: AMOUNT, payload: staticCode() }) }
}

async function payloadReuse(side: Side, req: ProbeRequest): Promise<Answer> {
  const ex = await side.send(req)
  const reason = unusable(ex)
  if (reason) return unobservable(reason)
  const r = ex.reply!
  if (r.status !== 200) return { observed: errorAnswer()(r) }
  const qr = (r.json as { qr_code?: unknown } | undefined)?.qr_code
  return {
    observed: {
      status: 200,
      qr_code: qr === staticCode() ? 'the payload, as given' : `a new code: ${kindOf(qr)}`,
    },
  }
}
