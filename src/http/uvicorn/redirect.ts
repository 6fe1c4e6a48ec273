// Where Starlette's trailing-slash redirect points: URL(scope) quoted as RedirectResponse does.
// The scheme is the connection's, or X-Forwarded-Proto's (the last one) when the client is
// 127.0.0.1, which uvicorn's proxy headers trust by default; the host is the Host header when
// Starlette can parse it, the server's own address otherwise; the query as received.
import type { IncomingMessage } from 'node:http'
import { targetOf } from './path.js'

const HOST =
  /^(?:[a-z0-9._~%!$&'()*+,;=-]+|\[(?:([a-f0-9]*:[a-f0-9.:]+)|v[a-f0-9]+\.[a-z0-9._~!$&'()*+,;=:-]+)\])(?::([0-9]+))?$/i
const FORWARDED_SCHEMES = new Set(['http', 'https', 'ws', 'wss'])
// quote(url, safe=":/%#?=@[]!$&'()*+,;"): everything else outside [A-Za-z0-9_.~-] as %XX of UTF-8.
const UNSAFE = /[^A-Za-z0-9_.~\-:/%#?=@[\]!$&'()*+,;]+/g
// Python's str.strip() over a latin-1 header value.
const STRIP = /^[\t-\r\x1c-\x20\x85\xa0]+|[\t-\r\x1c-\x20\x85\xa0]+$/g

function lastHeader(raw: readonly string[], name: string, first = false): string | undefined {
  let found: string | undefined
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== name) continue
    found = raw[i + 1]
    if (first) break
  }
  return found
}

/** Starlette's parse_host_header: a host and port it accepts, or undefined. */
function hostOf(value: string | undefined): string | undefined {
  const m = value === undefined ? null : HOST.exec(value)
  if (!m) return undefined
  if (m[1] !== undefined && !isIPv6(m[1])) return undefined
  const port = m[2]?.replace(/^0+/, '')
  return port === undefined || (port.length <= 5 && Number(port || '0') <= 65535)
    ? value
    : undefined
}

const isIPv6 = (s: string) => {
  try {
    return new URL(`http://[${s}]/`).hostname.length > 0
  } catch {
    return false
  }
}

/** The Location of a 307 to `path` (already decoded, trailing slashes removed). */
export function redirectLocation(incoming: IncomingMessage, path: string): string {
  const socket = incoming.socket
  let scheme = 'http'
  if (socket.remoteAddress === '127.0.0.1') {
    const forwarded = lastHeader(incoming.rawHeaders, 'x-forwarded-proto')?.replace(STRIP, '')
    if (forwarded !== undefined && FORWARDED_SCHEMES.has(forwarded)) scheme = forwarded
  }
  let netloc = hostOf(lastHeader(incoming.rawHeaders, 'host', true))
  if (netloc === undefined) {
    const host = socket.localAddress?.includes(':')
      ? `[${socket.localAddress}]`
      : socket.localAddress
    const standard = (scheme === 'https' || scheme === 'wss' ? 443 : 80) === socket.localPort
    netloc = standard ? host : `${host}:${socket.localPort}`
  }
  const target = targetOf(incoming)
  const q = target.indexOf('?')
  const query = q < 0 ? '' : target.slice(q + 1)
  const url = `${scheme}://${netloc}${path.startsWith('/') ? '' : '/'}${path}${query ? `?${query}` : ''}`
  return url.replace(UNSAFE, encodeURIComponent)
}
