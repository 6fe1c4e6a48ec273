// No body may produce a 500 of ours, and a refused request writes nothing. The one 500 allowed
// is FastAPI's own: in the fastapi style, a 422 whose list would echo what JSON cannot hold
// (NaN, an infinity, a lone surrogate, bytes that are not UTF-8) is the plain-text
// `Internal Server Error` the real server answers (docs/CONTRACT.md).
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, storeSnapshot, startTestSandbox, type TestSandbox } from '../harness.js'
import { FAST_TIER_RUN } from '../../vitest.tiers.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n)
const BODIES: [string, string][] = [
  ['empty', ''],
  ['whitespace', '   \n\t '],
  ['null', 'null'],
  ['a bare string', '"hello"'],
  ['a huge number', '1e999999'],
  ['nested arrays', '[[[[[[[[[[1]]]]]]]]]]'],
  ['100k nested arrays', deep(100_000)],
  ['unterminated deep nesting', '['.repeat(200_000)],
  ['amount as a nested array', '{"amount": [[1000]]}'],
  ['amount as an object', '{"amount": {"value": 1000}}'],
  ['amount as a huge integer', '{"amount": 123456789012345678901234567890}'],
  ['amount as a tiny float', '{"amount": 1e-320}'],
  ['amount as negative zero', '{"amount": -0}'],
  ['amount as NaN', '{"amount": NaN}'],
  ['amount as Infinity', '{"amount": Infinity}'],
  ['__proto__ key', '{"__proto__": {"amount": 1000}, "amount": 5}'],
  ['constructor key', '{"constructor": {"prototype": {"polluted": true}}, "amount": 5}'],
  [
    'NUL bytes in strings',
    '{"amount": 100, "description": "a\\u0000b", "pix_key": "x\\u0000@y.com", "pix_type": "EMAIL"}',
  ],
  ['raw NUL byte', '{"amount": 100\u0000}'],
  ['lone surrogate', '{"amount": 100, "description": "\\ud800"}'],
  [
    'unicode keys and values',
    '{"ámount": 1, "amount": 100, "description": "çãõ 🚀 ﷺ", "pix_key": "ação@exemplo.com.br", "pix_type": "EMAIL"}',
  ],
  [
    'pix_type with unicode lookalike',
    '{"amount": 100, "pix_key": "52998224725", "pix_type": "СPF"}',
  ],
  ['duplicate keys', '{"amount": "x", "amount": 100}'],
  ['a BOM', '\ufeff{"amount": 100}'],
  [
    'invalid UTF-8',
    Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1'),
  ],
  ['very long string', JSON.stringify({ amount: 100, description: 'x'.repeat(900_000) })],
  [
    'many keys',
    JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))),
  ],
  ['payload that is a number', '{"amount": 100, "payload": 12345}'],
  ['payload with garbage TLV', '{"amount": 100, "payload": "0002019999"}'],
  [
    'payload with lengths past the end',
    '{"amount": 100, "payload": "00020126990014br.gov.bcb.pix6304ABCD"}',
  ],
]
const TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
]
const ROUTES = ['/api/v1/hub/transactions/in', '/api/v1/hub/transactions/out']
/** The types each body is sent with: in the fast tier, JSON and one other, another for each body. */
const typesFor = (body: number) =>
  FAST_TIER_RUN ? [TYPES[0]!, TYPES[1 + (body % (TYPES.length - 1))]!] : TYPES

/** The bodies whose 422 FastAPI cannot write: its plain-text 500, in the fastapi style only. */
const UNWRITABLE = new Set([
  'a huge number',
  'amount as NaN',
  'amount as Infinity',
  'lone surrogate',
])

describe('bad input', () => {
  it.each(BODIES.map(([name, body], i) => [name, body, i] as const))(
    '%s: never a 5xx of ours, a JSON {detail}, nothing written',
    async (name, body, i) => {
      for (const style of ['simple', 'fastapi'] as const) {
        sb.apply({ settings: { validation_errors: style } })
        for (const path of ROUTES) {
          for (const type of typesFor(i)) {
            for (const auth of [AUTH.main, undefined]) {
              const before = storeSnapshot(sb)
              const res = await sb.request('POST', path, {
                auth,
                body,
                headers: { 'content-type': type },
              })
              if (res.status === 500) {
                expect(
                  style === 'fastapi' && UNWRITABLE.has(name),
                  `${style} ${path} ${type}: ${res.text}`,
                ).toBe(true)
                expect(res.text).toBe('Internal Server Error')
                expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
                expect(storeSnapshot(sb)).toEqual(before)
                continue
              }
              expect(res.status, `${style} ${path} ${type}`).toBeLessThan(500)
              expect(res.headers.get('content-type')).toMatch(/^application\/json/)
              if (res.status === 200) expect(res.body).toHaveProperty('transaction_id')
              else {
                expect(res.body).toHaveProperty('detail')
                expect(storeSnapshot(sb)).toEqual(before)
              }
            }
          }
        }
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect(({} as Record<string, unknown>).amount).toBeUndefined()
    },
  )

  // Raw bytes over a socket: fetch refuses some of these headers itself, and a test that turned
  // the client's refusal into a made-up answer would pass against a crashing server.
  it.each([
    // Node's HTTP parser refuses the request before the app sees it: uvicorn's 400, connection closed.
    ['Authorization with NUL', 'Basic AAAA\u0000', 400, 'Invalid HTTP request received.'],
    ['Authorization of 8 KiB', 'Basic ' + 'A'.repeat(8192), 401, 'Not authenticated'],
    [
      'Authorization that decodes to binary',
      'Basic ' + Buffer.from([0xff, 0x3a, 0xfe]).toString('base64'),
      401,
      'Not authenticated',
    ],
  ])('odd headers: %s', async (_name, authorization, status, detail) => {
    const res = await rawPost({ authorization })
    expect(res.status).toBe(status)
    expect(res.body).toEqual(status === 400 ? detail : { detail })
  })

  it("odd headers: X-Sandbox-Outcome with non-ASCII bytes is the header's 422", async () => {
    const res = await rawPost({ authorization: AUTH.main, 'x-sandbox-outcome': 'sücçess' })
    expect(res).toMatchObject({
      status: 422,
      body: { detail: 'X-Sandbox-Outcome: must be one of success, pending, failed' },
    })
  })
})

/** A transfer sent as raw bytes (header values as latin1); the status and JSON body of the answer. */
async function rawPost(
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const json = JSON.stringify({ amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' })
  const head = [
    'POST /api/v1/hub/transactions/out HTTP/1.1',
    'host: localhost',
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(json)}`,
    'connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n')
  const socket = net.connect(sb.port, '127.0.0.1')
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), Buffer.from(json)]))
  const chunks: Buffer[] = []
  for await (const chunk of socket) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
  const rest = text.slice(text.indexOf('\r\n\r\n') + 4)
  const chunked = /\r\ntransfer-encoding: chunked/i.test(text.slice(0, text.indexOf('\r\n\r\n')))
  const body = chunked ? rest.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '') : rest
  return { status, body: body.startsWith('{') ? JSON.parse(body) : body }
}
