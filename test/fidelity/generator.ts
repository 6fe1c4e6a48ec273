// A seeded generator of raw HTTP requests for the differential test: methods, paths, auth
// headers, content types, bodies, their combinations, and malformed HTTP. The same seed gives
// the same bytes. Each case carries tags that name what it exercises, which the deviations
// (deviations.ts) read.
import type { Rng } from './rng.js'
import { bodies, type BodyCase } from './bodies.js'

export interface Case {
  /** What the case is about, for the report. */
  kind: string
  bytes: Buffer
  tags: Set<string>
  /** The decoded path, when the request line carries one (the deviations read it). */
  path?: string
}

const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64')
const basic = (id: string, secret: string) => `Basic ${b64(`${id}:${secret}`)}`

export const CREDENTIALS: [string, string][] = [
  ['sandbox-client', 'sandbox-secret'],
  ['no-provider', 'no-provider-secret'],
  ['charges-only', 'charges-only-secret'],
  ['inactive', 'inactive-secret'],
  ['production-client', 'production-secret'],
  ['empty-balance', 'empty-balance-secret'],
]
const MAIN = basic('sandbox-client', 'sandbox-secret')
const MAIN_TOKEN = b64('sandbox-client:sandbox-secret')

/** Authorization header values, with what they exercise. Undefined: no header. */
function authHeader(r: Rng): string | undefined {
  return r.weighted<() => string | undefined>([
    [30, () => MAIN],
    [12, () => basic(...r.pick(CREDENTIALS))],
    [3, () => undefined],
    [2, () => basic('sandbox-client', 'wrong')],
    [2, () => basic('nobody', 'nothing')],
    [1, () => basic('', '')],
    [1, () => `Basic ${b64('sandbox-client')}`], // no colon
    [1, () => `Basic ${b64('sandbox-client:sandbox-secret:extra')}`],
    [1, () => `Basic ${b64('sandbox-clíent:sandbox-secret')}`], // not ASCII once decoded
    [2, () => `${r.pick(['basic', 'BASIC', 'bAsIc'])} ${MAIN_TOKEN}`],
    [2, () => `${r.pick(['Bearer', 'Digest', 'Basics', 'Token'])} ${MAIN_TOKEN}`],
    [1, () => r.pick(['Basic', 'Basic ', 'Basic  ', '', ' ', MAIN_TOKEN])],
    [2, () => `Basic ${MAIN_TOKEN.replace(/=+$/, '')}`], // padding left out
    [2, () => `Basic ${MAIN_TOKEN}${r.pick(['XQ==', '=', '==', 'junk', '!!'])}`], // data after the padding
    [2, () => `Basic ${insertJunk(r, MAIN_TOKEN)}`], // characters outside the alphabet
    [1, () => `Basic  ${MAIN_TOKEN}`],
    [1, () => `Basic\t${MAIN_TOKEN}`],
    [1, () => `Basic ${MAIN_TOKEN} `],
    [1, () => `Basic ${MAIN_TOKEN}\xa0`],
    [1, () => `Basic ${MAIN_TOKEN.slice(0, -2)}`],
    [1, () => `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64url')}`],
    [1, () => `Basic ${r.pick(['Y', 'YQ', 'YQ=', '=', '====', 'é', '%%'])}`],
  ])()
}

function insertJunk(r: Rng, token: string): string {
  const at = r.int(0, token.length)
  return token.slice(0, at) + r.pick(['!', ' ', '.', '-', '_', '*', '\t', '~']) + token.slice(at)
}

const CONTRACT = [
  '/api/v1/hub/transactions/in',
  '/api/v1/hub/transactions/out',
  '/api/v1/user/company',
  '/api/v1/oauth/user/company',
]
const OTHER_PATHS = [
  '/',
  '/api',
  '/api/v1',
  '/api/v1/',
  '/api/v1/hub',
  '/api/v1/hub/transactions',
  '/api/v1/nothing',
  '/api/v2/user/company',
  '/user/company',
  '/hub/transactions/in',
]
/** Paths the sandbox serves itself (a listed deviation), and ways around them. */
const SANDBOX_PATHS = [
  '/_sandbox/health',
  '/docs',
  '/openapi.json',
  '/_sandbox%2Fhealth',
  '/api/v1/../_sandbox/health',
  '/favicon.ico',
]

/** A path, and what uvicorn routes on (its percent-decoding), for the deviations. */
function pathOf(r: Rng): string {
  const base = r.weighted<() => string>([
    [40, () => r.pick(CONTRACT)],
    [4, () => r.pick(OTHER_PATHS)],
    [1, () => r.pick(SANDBOX_PATHS)],
  ])()
  return r.weighted<() => string>([
    [60, () => base],
    [2, () => base + '/'],
    [1, () => base + '//'],
    [2, () => base.replace('/api/v1', r.pick(['/API/v1', '/api/V1', '/Api/v1']))],
    [1, () => base.toUpperCase()],
    [3, () => percentEncodeOne(r, base)],
    [2, () => base.replace(/\/(?=[^/]*$)/, '%2F')],
    [1, () => base.replace('/api/v1/', '/api/v1%2F')],
    [1, () => base.replace('/api/v1/', '/api/v1%2f')],
    [
      2,
      () =>
        base.replace(
          '/api/v1/',
          r.pick(['/api/v1/./', '/api/v1/x/../', '/api/./v1/', '/api/v1/%2e/', '/api/v1//']),
        ),
    ],
    [1, () => base + r.pick(['/.', '/..', '/%2e', '/%2E%2E'])],
    [2, () => base + '?' + r.pick(['x=1', '', 'a=%ZZ', 'q=%C3%A9', 'a&b', 'x=1/', '%', 'x=/..'])],
    [1, () => base + '/?x=1'],
    [1, () => base + r.pick(['#frag', ';x', '%00', '%', '%G1', '%e9', '%C3%A9'])],
    [1, () => base.replace(/[a-z]$/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    [1, () => base + r.pick(['%0A', '%0a/', '%0A%0A', '/%0A', '%0D', '%20', '%09'])],
    [1, () => base + '?' + r.pick(['', '&', 'a=%2F', 'x={}', "q='1'"])],
  ])()
}

function percentEncodeOne(r: Rng, path: string): string {
  const positions = [...path].map((c, i) => (c === '/' ? -1 : i)).filter((i) => i >= 0)
  const at = r.pick(positions)
  const hex = path.charCodeAt(at).toString(16)
  return path.slice(0, at) + `%${r.bool() ? hex : hex.toUpperCase()}` + path.slice(at + 1)
}

const CONTENT_TYPES: [number, string | undefined][] = [
  [40, 'application/json'],
  [6, undefined],
  [3, 'application/json; charset=utf-8'],
  [1, 'application/json;charset=latin-1'],
  [1, 'APPLICATION/JSON'],
  [1, 'Application/Json; Charset=UTF-8'],
  [2, 'application/vnd.api+json'],
  [1, 'application/merge-patch+json'],
  [1, 'application/problem+json; charset=utf-8'],
  [2, 'text/plain'],
  [1, 'text/json'],
  [1, 'application/x-www-form-urlencoded'],
  [1, 'multipart/form-data; boundary=x'],
  [1, ''],
  [1, 'application/json, text/plain'],
  [1, ' application/json '],
  [1, 'application/json;'],
  [1, 'application/jsonx'],
  [1, 'application/+json'],
  [1, 'application / json'],
  [1, 'application'],
  [1, 'json'],
  [1, 'application/xml'],
  [1, '*/*'],
]

interface Spec {
  method: string
  target: string
  version?: string
  headers: [string, string][]
  body?: Buffer
  /** Content-Length is added unless the case sets one or sends chunked. */
  length?: 'auto' | 'none'
}

function render(spec: Spec): Buffer {
  const headers = [...spec.headers]
  const body = spec.body ?? Buffer.alloc(0)
  const named = (n: string) => headers.some(([k]) => k.toLowerCase() === n)
  if (
    (spec.length ?? 'auto') === 'auto' &&
    !named('content-length') &&
    !named('transfer-encoding') &&
    (body.length || spec.method === 'POST')
  ) {
    headers.push(['Content-Length', String(body.length)])
  }
  const head =
    `${spec.method} ${spec.target} ${spec.version ?? 'HTTP/1.1'}\r\n` +
    headers.map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    '\r\n'
  return Buffer.concat([Buffer.from(head, 'latin1'), body])
}

/** What uvicorn routes on: the target up to `?`, percent-decoded as Python's unquote does. */
export function routePathOf(target: string): string {
  const raw = target.split('?')[0]!
  return Buffer.from(
    raw.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8')
}

function contractRequest(r: Rng): { spec: Spec; tags: Set<string>; kind: string } {
  const tags = new Set<string>()
  const path = pathOf(r)
  const route = routePathOf(path)
  const isPost = /transactions\/(in|out)\/*$/i.test(route)
  const method = r.weighted<() => string>([
    [40, () => (isPost ? 'POST' : 'GET')],
    [2, () => (isPost ? 'GET' : 'POST')],
    [2, () => r.pick(['PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'])],
    [1, () => r.pick(['post', 'Get', 'FOO', 'PROPFIND', 'TRACE', 'M-SEARCH'])],
  ])()
  // Loopback names mostly; now and then another name, which the sandbox's Host check (DNS
  // rebinding) refuses: a listed deviation.
  const headers: [string, string][] = [
    [
      'Host',
      r.weighted<() => string>([
        [60, () => '127.0.0.1'],
        [6, () => '127.0.0.1:8080'],
        [4, () => 'localhost'],
        [2, () => '[::1]:8080'],
        [1, () => 'pix.example.com'],
      ])(),
    ],
  ]
  const auth = authHeader(r)
  if (auth !== undefined) headers.push(['Authorization', auth])
  let body: Buffer | undefined
  let kind = `${method} ${isPost ? 'post-route' : 'get-route'}`
  // The sandbox's own control header: an outcome picked per request, or a value it refuses.
  // Over any balance, so that both sides refuse the transfer and no balance moves apart.
  const outcome = /out\/*$/.test(route) && r.chance(0.02)
  if (outcome) {
    headers.push(['X-Sandbox-Outcome', r.pick(['failed', 'pending', 'bogus'])])
    tags.add('outcome-header')
  }
  if (method !== 'GET' && method !== 'HEAD' ? r.chance(0.95) : r.chance(0.05)) {
    const b: BodyCase = bodies(r, /out\/*$/.test(route) ? 'transfer' : 'charge', outcome)
    body = b.bytes
    for (const t of b.tags) tags.add(t)
    if (body.length > 1024 * 1024) tags.add('over-1mib')
    kind += ` body:${b.kind}`
    const type = b.contentType !== undefined ? b.contentType : r.weighted(CONTENT_TYPES)
    if (type !== undefined)
      headers.push([r.pick(['Content-Type', 'content-type', 'CONTENT-TYPE']), type])
    kind += ` type:${type ?? '-'}`
  }
  if (r.chance(0.05)) headers.push(['Accept', r.pick(['application/json', '*/*', 'text/html'])])
  if (r.chance(0.03)) headers.push(['Connection', r.pick(['close', 'keep-alive'])])
  if (r.chance(0.04))
    headers.push(['X-Forwarded-Proto', r.pick(['https', 'http', 'wss', 'ftp', ' https '])])
  if (r.chance(0.02)) headers.push(['Expect', r.pick(['100-continue', 'something-else', '200-ok'])])
  if (r.chance(0.02)) headers.push(['X-Forwarded-For', '10.0.0.1'])
  if (r.chance(0.01))
    headers.push(['X-Forwarded-Proto', 'https'], ['X-Forwarded-Proto', r.pick(['http', 'nope'])])
  if (r.chance(0.01))
    headers.push(['Connection', 'Upgrade'], ['Upgrade', r.pick(['websocket', 'h2c'])])
  if (r.chance(0.01)) headers.push(['Authorization', r.pick([MAIN, 'Bearer x'])])
  if (r.chance(0.01) && body)
    headers.push(['Content-Type', r.pick(['application/json', 'text/plain'])])
  return { spec: { method, target: path, headers, body }, tags, kind }
}

/** Requests the HTTP layer judges before any route: malformed or unusual framing. */
function framing(r: Rng): { bytes: Buffer; kind: string; tags: Set<string> } {
  const tags = new Set<string>(['framing'])
  const auth = `Authorization: ${MAIN}\r\n`
  const json = '{"amount":100}'
  const post = (extra: string, body = json) =>
    `POST /api/v1/hub/transactions/in HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\n${extra}\r\n${body}`
  const cases: [string, () => string | Buffer][] = [
    ['no Host in HTTP/1.1', () => `GET /api/v1/user/company HTTP/1.1\r\n${auth}\r\n`],
    ['HTTP/1.0 without Host', () => `GET /api/v1/user/company HTTP/1.0\r\n${auth}\r\n`],
    [
      'HTTP/1.0 with Host',
      () => `GET /api/v1/user/company HTTP/1.0\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'HTTP/1.0 redirect without Host',
      () =>
        `${r.pick(['GET', 'POST', 'HEAD'])} /api/v1/${r.pick(['user/company', 'hub/transactions/in'])}/${r.pick(['', '?x=1'])} HTTP/1.0\r\n${auth}\r\n`,
    ],
    [
      'absolute target with a slash',
      () => `GET http://127.0.0.1/api/v1/user/company/ HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'two Hosts',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: localhost\r\n${auth}\r\n`,
    ],
    ['empty Host', () => `GET /api/v1/user/company HTTP/1.1\r\nHost: \r\n${auth}\r\n`],
    [
      'bad request line',
      () =>
        r.pick([
          'GARBAGE\r\n\r\n',
          'GET\r\n\r\n',
          'GET /api/v1/user/company\r\n\r\n',
          'GET  /api/v1/user/company HTTP/1.1\r\nHost: x\r\n\r\n',
          ' GET / HTTP/1.1\r\nHost: x\r\n\r\n',
        ]),
    ],
    [
      'unknown version',
      () =>
        `GET /api/v1/user/company ${r.pick(['HTTP/2.0', 'HTTP/1.2', 'HTTP/3', 'http/1.1', 'HTTP/1'])}\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'bare LF',
      () => `GET /api/v1/user/company HTTP/1.1\nHost: 127.0.0.1\n${auth.replace('\r\n', '\n')}\n`,
    ],
    [
      'header without colon',
      () => `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n${auth}\r\n`,
    ],
    [
      'space before colon',
      () => `GET /api/v1/user/company HTTP/1.1\r\nHost : 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'obs-fold',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Folded: a\r\n b\r\n${auth}\r\n`,
    ],
    [
      'bad header name',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${r.pick(['X(y)', 'X y', 'X@y', '"x"', 'X\x7fY'])}: 1\r\n${auth}\r\n`,
    ],
    [
      'control in header value',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\nX-C: a${r.pick(['\x01', '\x1c', '\x7f', '\x0b', '\x00'])}b\r\n${auth}\r\n`,
    ],
    [
      'non-ASCII in target',
      () =>
        Buffer.from(
          `GET /api/v1/user/compan\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
          'latin1',
        ),
    ],
    [
      'space in target',
      () => `GET /api/v1/user company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'backslash in target',
      () =>
        `GET ${r.pick(['/api/v1/user\\company', '/api\\v1/user/company', '/api/v1/user/company?x=\\'])} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'target without slash',
      () =>
        `GET ${r.pick(['api/v1/user/company', '*', 'x'])} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'absolute target',
      () => `GET http://127.0.0.1/api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    ['OPTIONS *', () => 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    [
      'CONNECT',
      () =>
        `CONNECT ${r.pick(['127.0.0.1:443', 'example.com:443', '/api/v1/user/company'])} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'Content-Length and chunked',
      () =>
        post(
          `Content-Length: ${json.length}\r\nTransfer-Encoding: chunked\r\n`,
          `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
        ),
    ],
    [
      'chunked',
      () =>
        post(
          'Transfer-Encoding: chunked\r\n',
          `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
        ),
    ],
    [
      'chunked in parts',
      () =>
        post(
          'Transfer-Encoding: chunked\r\n',
          `3\r\n${json.slice(0, 3)}\r\n${(json.length - 3).toString(16)}\r\n${json.slice(3)}\r\n0\r\n\r\n`,
        ),
    ],
    [
      'chunked with extension',
      () =>
        post(
          'Transfer-Encoding: chunked\r\n',
          `${json.length.toString(16)};x=1\r\n${json}\r\n0\r\n\r\n`,
        ),
    ],
    ['bad chunk size', () => post('Transfer-Encoding: chunked\r\n', `zz\r\n${json}\r\n0\r\n\r\n`)],
    [
      'unknown transfer coding',
      () =>
        post(
          `Transfer-Encoding: ${r.pick(['gzip', 'gzip, chunked', 'chunked, gzip', 'identity'])}\r\nContent-Length: ${json.length}\r\n`,
        ),
    ],
    [
      'two Content-Lengths',
      () =>
        post(
          `Content-Length: ${json.length}\r\nContent-Length: ${r.pick([json.length, json.length + 1])}\r\n`,
        ),
    ],
    ['Content-Length list', () => post(`Content-Length: ${json.length}, ${json.length}\r\n`)],
    [
      'bad Content-Length',
      () => post(`Content-Length: ${r.pick(['-1', 'abc', '+14', '1e1', ' ', '0x0e'])}\r\n`),
    ],
    ['Content-Length too short', () => post(`Content-Length: 5\r\n`)],
    [
      'GET with a body',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Length: 4\r\n\r\nnull`,
    ],
    [
      'huge header',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}X-Big: ${'a'.repeat(r.pick([8_000, 17_000, 70_000, 200_000, 262_000, 263_000, 300_000]))}\r\n\r\n`,
    ],
    [
      'many headers',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}${Array.from({ length: r.pick([50, 150]) }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`,
    ],
    [
      'long target',
      () =>
        `GET /api/v1/user/company?x=${'a'.repeat(r.pick([4_000, 17_000, 65_512, 65_513, 70_000, 200_000]))} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'Expect',
      () =>
        post(
          `Expect: ${r.pick(['100-continue', 'fancy', '100-Continue'])}\r\nContent-Length: ${json.length}\r\n`,
        ),
    ],
    [
      'lower-case method',
      () => `get /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`,
    ],
    [
      'pipelined',
      () =>
        `GET /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\nGET /api/v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    ],
  ]
  const [kind, make] = r.pick(cases)
  const made = make()
  const bytes = typeof made === 'string' ? Buffer.from(made, 'latin1') : made
  return { bytes, kind: `framing: ${kind}`, tags }
}

/** One case; about one in eight is about framing, the rest are requests to routes. */
export function generate(r: Rng): Case {
  if (r.chance(0.12)) return framing(r)
  const { spec, tags, kind } = contractRequest(r)
  return { kind, bytes: render(spec), tags, path: routePathOf(spec.target) }
}
