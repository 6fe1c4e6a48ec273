// DNS rebinding (docs/SECURITY.md#dns-rebinding): a web page the developer opens can point its own
// name at 127.0.0.1 and then call a local sandbox as its own origin, with the public default
// credentials: list webhook secrets, read the journal, use the receiver check as a port scanner.
// A browser always sends the name it resolved as `Host`, so the server answers only to the names
// it is known by: on a loopback HOST (or whenever ALLOWED_HOSTS is set), any other Host is
// refused before the app sees the request, on every route. uvicorn has no such check.
import type { Config } from '../config.js'

/** The names a loopback server is reached by, whatever the port. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]']
/** Host headers already allowed, so that a request pays one lookup; beyond this many it starts over. */
const ALLOWED_CACHE_LIMIT = 64

const isLoopbackHost = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h)
}

/** A Host header's name without its port, lower-case (`[::1]` keeps its brackets). */
export function hostName(host: string): string {
  const h = host.toLowerCase()
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1)
  const colon = h.lastIndexOf(':')
  return colon === -1 ? h : h.slice(0, colon)
}

/**
 * Whether a Host header names this server, or undefined when the server answers to any (a HOST
 * beyond loopback without ALLOWED_HOSTS, or ALLOWED_HOSTS=*). Entries of ALLOWED_HOSTS are names
 * (any port); `.example.com` allows example.com and every name under it.
 */
export function hostAllowance(
  config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts'>,
): ((host: string) => boolean) | undefined {
  const extra = config.allowedHosts ?? []
  if (extra.includes('*') || (!isLoopbackHost(config.host) && extra.length === 0)) return undefined
  const exact = new Set([
    ...LOOPBACK_NAMES,
    hostName(config.host.includes(':') ? `[${config.host}]` : config.host),
  ])
  if (config.publicUrl) exact.add(new URL(config.publicUrl).hostname.toLowerCase())
  const suffixes: string[] = []
  for (const entry of extra) {
    if (entry.startsWith('.')) suffixes.push(entry)
    else exact.add(entry)
  }
  return (host) => {
    const name = hostName(host)
    return exact.has(name) || suffixes.some((s) => name.endsWith(s) || name === s.slice(1))
  }
}

type Fetch<E> = (request: Request, env: E) => unknown

/** `fetch` behind the Host check; `fetch` itself when the server answers to any Host. */
export function guardHosts<E extends { incoming: { headers: { host?: string } } }>(
  fetch: Fetch<E>,
  allows: ((host: string) => boolean) | undefined,
): Fetch<E> {
  if (!allows) return fetch
  const allowed = new Set<string>()
  // The last Host allowed: a client sends the same one call after call (compared, not hashed).
  let last = ''
  return (request, env) => {
    const host = env.incoming.headers.host
    // No Host (HTTP/1.0 tools), or an empty one, is no browser's request: nothing to rebind.
    if (!host || host === last) return fetch(request, env)
    if (allowed.has(host)) {
      last = host
      return fetch(request, env)
    }
    if (allows(host)) {
      if (allowed.size >= ALLOWED_CACHE_LIMIT) allowed.clear()
      allowed.add(host)
      last = host
      return fetch(request, env)
    }
    const shown = host.length > 200 ? `${host.slice(0, 200)}...` : host
    const detail = `Host ${shown} is not a name this sandbox answers to (a guard against DNS rebinding): reach it at 127.0.0.1 or localhost, or add the name to ALLOWED_HOSTS`
    return new Response(JSON.stringify({ detail }), {
      status: 421,
      headers: { 'content-type': 'application/json' },
    })
  }
}
