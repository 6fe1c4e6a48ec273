// One case of each way the sandbox answers as FastAPI under uvicorn (docs/CONTRACT.md#the-framework),
// sent as raw bytes: the differential (test/fidelity) compares thousands against FastAPI itself;
// these say, one by one, what a client meets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, startTestSandbox, storeSnapshot, type TestSandbox } from '../harness.js'
import { exchange, type Answer } from '../fidelity/wire.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const send = (text: string | Buffer) =>
  exchange(sb.port, typeof text === 'string' ? Buffer.from(text, 'latin1') : text)
const get = (target: string, headers = `Authorization: ${AUTH.main}\r\n`) =>
  send(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`)
const post = (
  path: string,
  body: Buffer | string,
  type: string | null = 'application/json',
  auth = AUTH.main,
) => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body
  const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}Content-Length: ${bytes.length}\r\n\r\n`
  return send(Buffer.concat([Buffer.from(head, 'latin1'), bytes]))
}
const json = (a: Answer) => JSON.parse(a.body.toString('utf8'))
const CHARGE = '/api/v1/hub/transactions/in'

describe('paths, as uvicorn routes them', () => {
  it('decodes %2F before routing, and resolves no dot segment', async () => {
    expect((await get('/api/v1%2Fuser/company')).status).toBe(200)
    expect((await get('/api/v1/user%2fcompany')).status).toBe(200)
    expect(await get('/api/v1/./user/company')).toMatchObject({ status: 404 })
    expect((await get('/api/v1/x/../user/company')).status).toBe(404)
  })

  it('redirects a trailing slash where Starlette does: the Host, X-Forwarded-Proto from 127.0.0.1, the path re-quoted', async () => {
    const res = await get('/api/v1/user/compan%79/?a=%C3%A9', `X-Forwarded-Proto: https\r\n`)
    expect(res.status).toBe(307)
    expect(res.headers.location).toBe('https://127.0.0.1/api/v1/user/company?a=%C3%A9')
  })
})

describe('credentials, as HTTPBasic decodes them', () => {
  it("takes base64 with characters outside the alphabet or data after the padding, as Python's b64decode", async () => {
    const token = AUTH.main.slice('Basic '.length)
    expect(
      (await get('/api/v1/user/company', `Authorization: Basic ${token}XQ==\r\n`)).status,
    ).toBe(200)
    expect(
      (
        await get(
          '/api/v1/user/company',
          `Authorization: Basic ${token.slice(0, 5)}!${token.slice(5)}\r\n`,
        )
      ).status,
    ).toBe(200)
    expect(
      (await get('/api/v1/user/company', `Authorization: Basic ${token.replace(/=+$/, '')}\r\n`))
        .status,
    ).toBe(401)
  })
})

describe('bodies, as FastAPI reads them', () => {
  it('does not read a body without Content-Type: a 422 echoing it as text', async () => {
    sb.apply({ settings: { validation_errors: 'fastapi' } })
    const res = await post(CHARGE, '{"amount":100}', null)
    expect(res.status).toBe(422)
    expect(json(res).detail).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: '{"amount":100}',
      },
    ])
  })

  it('refuses a body that is not UTF-8 with a 400 before authentication, and nothing is written', async () => {
    const before = storeSnapshot(sb)
    const res = await post(
      CHARGE,
      Buffer.from('{"amount":100,"description":"caf\xe9"}', 'latin1'),
      'application/json',
      'Basic bm9ib2R5Om5vdGhpbmc=',
    )
    expect(res.status).toBe(400)
    expect(json(res)).toEqual({ detail: 'There was an error parsing the body' })
    expect(storeSnapshot(sb)).toEqual(before)
  })

  it('reads UTF-16, and NaN where it is not validated', async () => {
    expect((await post(CHARGE, Buffer.from('{"amount":100}', 'utf16le'))).status).toBe(200)
    expect((await post(CHARGE, '{"amount":100,"extra":NaN}')).status).toBe(200)
  })

  it('echoes in a 422 what was sent: integers exact, floats as floats, keys in order', async () => {
    sb.apply({ settings: { validation_errors: 'fastapi' } })
    const res = await post(CHARGE, '{"z":1.0,"1":-0.0,"amount":9007199254740993}')
    expect(res.status).toBe(422)
    expect(res.body.toString()).toBe(
      '{"detail":[{"type":"less_than_equal","loc":["body","amount"],"msg":"Input should be less than or equal to 999999999999","input":9007199254740993,"ctx":{"le":999999999999}}]}',
    )
    const missing = await post(CHARGE, '{"z":1.0,"1":-0.0}')
    expect(missing.body.toString()).toContain('"input":{"z":1.0,"1":-0.0}')
  })

  it('answers a 422 it cannot write (NaN echoed) as FastAPI does: a plain-text 500', async () => {
    sb.apply({ settings: { validation_errors: 'fastapi' } })
    const res = await post(CHARGE, '{"amount":NaN}')
    expect(res).toMatchObject({
      status: 500,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    })
    expect(res.body.toString()).toBe('Internal Server Error')
    // The journal shows what the client got.
    const [kept] = (await sb.admin('GET', '/requests?limit=1')).body.data
    expect(kept).toMatchObject({ status: 500, response: { body: 'Internal Server Error' } })
    sb.apply({ settings: { validation_errors: 'simple' } })
    expect(json(await post(CHARGE, '{"amount":NaN}'))).toEqual({
      detail: 'amount: must be an integer greater than 0',
    })
  })
})

describe('the HTTP server, as uvicorn answers', () => {
  it("answers a request its parser refuses with uvicorn's 400", async () => {
    for (const bad of [
      'GET /api/v1/user/company HTTP/1.1\r\nHost : x\r\n\r\n',
      'GET /api/v1/user/company HTTP/1.1\r\n\r\n',
    ]) {
      const res = await send(bad)
      expect(res).toMatchObject({
        status: 400,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      })
      expect(res.body.toString()).toBe('Invalid HTTP request received.')
    }
  })

  it('ignores an Expect it does not know, and routes OPTIONS * and CONNECT', async () => {
    expect(
      (
        await get(
          '/api/v1/user/company',
          `Authorization: ${AUTH.main}\r\nExpect: something-else\r\n`,
        )
      ).status,
    ).toBe(200)
    expect(await send('OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')).toMatchObject({
      status: 404,
    })
    const connect = await send('CONNECT /api/v1/user/company HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    expect(connect).toMatchObject({ status: 405, headers: { allow: 'GET' } })
  })
})
