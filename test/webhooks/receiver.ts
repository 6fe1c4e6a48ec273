// A real HTTP receiver on loopback for webhook tests: records what arrives and answers what the
// test scripts (a status per request, a delay, headers).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { HANG_MS } from '../hang.js'

/** What Node's fetch adds to every request on its own; the attempts record the rest. */
export const TRANSPORT_HEADERS = [
  'host',
  'content-length',
  'connection',
  'accept',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
]

/** The headers a request arrived with, less those fetch added: what the sandbox set, and recorded. */
export const setBySandbox = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.includes(name)))

export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
  json: any
  at: number
}

interface Answer {
  status: number
  headers?: Record<string, string>
  delayMs?: number
}

export interface Receiver {
  url: string
  port: number
  received: Received[]
  /** Answers to the next requests, in order; then `fallback`. */
  script: Answer[]
  fallback: Answer
  /** Waits until `n` requests have come; bounded only against a hang (test/hang.ts) unless `timeoutMs`. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      rx.received.push({ path: req.url ?? '', headers: req.headers, body, json, at: Date.now() })
      const answer = rx.script.shift() ?? rx.fallback
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        res.end('{}')
      }, answer.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const actual = (server.address() as AddressInfo).port
  const rx: Receiver = {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received: [],
    script: [],
    fallback: { status: 200 },
    async waitFor(n, timeoutMs = HANG_MS) {
      const until = Date.now() + timeoutMs
      while (rx.received.length < n) {
        if (Date.now() > until)
          throw new Error(`expected ${n} webhook requests, got ${rx.received.length}`)
        await new Promise((r) => setTimeout(r, 20))
      }
      return rx.received
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return rx
}

/** A receiver that takes every request and never answers: what a hung integrator's app does. */
export async function startSilentReceiver(): Promise<{
  url: string
  count: () => number
  waitFor(n: number): Promise<void>
  close(): Promise<void>
}> {
  let n = 0
  const server = http.createServer(() => void n++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => n,
    async waitFor(want) {
      const until = Date.now() + HANG_MS
      while (n < want) {
        if (Date.now() > until)
          throw new Error(`expected ${want} requests to the silent receiver, got ${n}`)
        await new Promise((r) => setTimeout(r, 20))
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
