// How large a request's head may be, as uvicorn takes it (docs/CONTRACT.md#the-framework): heads
// over Node's 16 KiB answered, up to 256 KiB; a target up to 65,535 bytes; beyond, uvicorn's 400.
// And what the journal keeps of such a head.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  LARGE_HEAD_CONNECTIONS,
  MAX_HEAD_BYTES,
  MAX_TARGET_BYTES,
} from '../../src/http/uvicorn/head-size.js'
import { MAX_HEAD_TEXT } from '../../src/http/request-journal.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { exchange, type Answer } from '../fidelity/wire.js'

let sb: TestSandbox
beforeAll(async () => (sb = await startTestSandbox()))
afterAll(() => sb.close())

const COMPANY = '/api/v1/user/company'
const head = (target: string, extra = '') =>
  Buffer.from(
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH.main}\r\n${extra}\r\n`,
    'latin1',
  )
const withHeader = (bytes: number) => head(COMPANY, `X-Big: ${'a'.repeat(bytes)}\r\n`)
const withTarget = (length: number) =>
  head(`${COMPANY}?x=${'a'.repeat(length - COMPANY.length - 3)}`)
const outcome = (a: Answer) => [a.status, a.status === 200 ? 'ok' : a.body.toString()]
const REFUSED = [400, 'Invalid HTTP request received.']

describe('the size of a head', () => {
  it('answers a header or a target of 17 KB, as uvicorn does (Node alone refuses over 16 KiB)', async () => {
    expect(outcome(await exchange(sb.port, withHeader(17_000)))).toEqual([200, 'ok'])
    expect(outcome(await exchange(sb.port, withTarget(17_000)))).toEqual([200, 'ok'])
  })

  it("answers a head up to 256 KiB and refuses a larger one with uvicorn's 400 (h11)", async () => {
    expect(outcome(await exchange(sb.port, withHeader(MAX_HEAD_BYTES - 1000)))).toEqual([200, 'ok'])
    expect(outcome(await exchange(sb.port, withHeader(MAX_HEAD_BYTES + 10)))).toEqual(REFUSED)
  })

  it("answers a target up to 65,535 bytes and refuses a longer one with uvicorn's 400 (httptools)", async () => {
    expect(outcome(await exchange(sb.port, withTarget(MAX_TARGET_BYTES)))).toEqual([200, 'ok'])
    expect(outcome(await exchange(sb.port, withTarget(MAX_TARGET_BYTES + 1)))).toEqual(REFUSED)
  })

  it('gives a head over 16 KiB only to the first 64 connections open at once', async () => {
    // Each held connection has had an answer, so the server has counted it.
    const held = await Promise.all(
      Array.from({ length: LARGE_HEAD_CONNECTIONS }, () => keptAlive(sb.port)),
    )
    try {
      expect(outcome(await exchange(sb.port, withHeader(17_000)))).toEqual(REFUSED)
      expect(outcome(await exchange(sb.port, withHeader(16_000)))).toEqual([200, 'ok'])
    } finally {
      for (const s of held) s.destroy()
    }
    // The server counts a connection out when it sees it close: until then the limit may hold.
    let answer = await exchange(sb.port, withHeader(17_000))
    while (answer.status !== 200) answer = await exchange(sb.port, withHeader(17_000))
    expect(outcome(answer)).toEqual([200, 'ok'])
  })

  it('keeps 16 KiB of a long header text, path or query in the journal', async () => {
    await exchange(sb.port, withHeader(40_000))
    const [entry] = (await sb.admin('GET', `/requests?limit=1&path=${COMPANY}`)).body.data
    expect(entry.request.headers['x-big']).toMatch(/^a+\.\.\.$/)
    expect(entry.request.headers['x-big'].length).toBeLessThan(MAX_HEAD_TEXT)
    await exchange(sb.port, withTarget(40_000))
    const [long] = (await sb.admin('GET', `/requests?limit=1&path=${COMPANY}`)).body.data
    expect(long.query).toHaveLength(MAX_HEAD_TEXT + 3)
  })
})

/** A connection that has had one answer and stays open. */
function keptAlive(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write('GET /api/v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    )
    socket.once('data', () => resolve(socket))
    socket.once('error', reject)
  })
}
