// One side of the comparison (the in-process sandbox or the target): sends a check's request
// with its own credentials, a timeout and a rate limit, and keeps every exchange, redacted.
import type { AuthSpec, Exchange, Failure, ProbeRequest, Reply } from './types.js'

const MAX_BODY_BYTES = 1024 * 1024
export const WRONG_SECRET = 'pix-sandbox-probe-wrong-secret'
export const UNKNOWN_CLIENT = 'pix-sandbox-probe-unknown-client'

export interface SideOptions {
  name: 'sandbox' | 'target'
  base: string
  clientId?: string
  clientSecret?: string
  /** Requests per second at most; 0 means no limit. */
  rate: number
  timeoutMs: number
  userAgent: string
}

export interface Side {
  name: 'sandbox' | 'target'
  base: string
  hasCredentials: boolean
  hasClientId: boolean
  exchanges: Exchange[]
  send(req: ProbeRequest): Promise<Exchange>
}

export const basicToken = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

export function createSide(o: SideOptions): Side {
  const exchanges: Exchange[] = []
  const gap = o.rate > 0 ? 1000 / o.rate : 0
  let nextSlot = 0

  const authorization = (auth: AuthSpec): string | undefined => {
    switch (auth.kind) {
      case 'none':
        return undefined
      case 'client': {
        const token = basicToken(o.clientId ?? '', o.clientSecret ?? '')
        if (auth.variant === 'lowercase-scheme') return token.replace(/^Basic/, 'basic')
        return auth.variant === 'unpadded' ? token.replace(/=+$/, '') : token
      }
      case 'wrong-secret':
        return basicToken(o.clientId ?? UNKNOWN_CLIENT, WRONG_SECRET)
      case 'unknown-client':
        return basicToken(UNKNOWN_CLIENT, WRONG_SECRET)
      case 'header':
        return auth.value
    }
  }

  const send = async (req: ProbeRequest): Promise<Exchange> => {
    const wait = nextSlot - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    const url = req.absolute ? req.path : o.base + req.path
    const headers: Record<string, string> = { 'user-agent': o.userAgent }
    const auth = authorization(req.auth)
    if (auth !== undefined) headers.authorization = auth
    if (req.contentType) headers['content-type'] = req.contentType
    const shown = {
      ...headers,
      ...(auth !== undefined && { authorization: redactAuthorization(req.auth, auth) }),
    }
    // The next request waits a whole gap from the moment this one is recorded as sent, so a
    // process descheduled between the two (a loaded machine) cannot bring them closer.
    const sentAt = Date.now()
    nextSlot = Math.max(sentAt, nextSlot) + gap
    const exchange: Exchange = {
      side: o.name,
      sent_at: sentAt,
      request: {
        method: req.method,
        url,
        headers: shown,
        ...(req.body !== undefined && { body: clip(req.body) }),
      },
    }
    const started = Date.now()
    try {
      exchange.reply = await fetchReply(url, req, headers, o.timeoutMs, started)
    } catch (err) {
      exchange.failure = describeFailure(err, o.timeoutMs)
    }
    exchanges.push(exchange)
    return exchange
  }

  return {
    name: o.name,
    base: o.base,
    hasCredentials: !!(o.clientId && o.clientSecret),
    hasClientId: !!o.clientId,
    exchanges,
    send,
  }
}

/** The real credentials never leave this module; the made-up bad ones are shown as sent. */
function redactAuthorization(auth: AuthSpec, value: string): string {
  return auth.kind === 'client' || auth.kind === 'wrong-secret'
    ? `${value.split(' ')[0]} [redacted]`
    : value
}

const clip = (s: string) =>
  s.length > 2000 ? `${s.slice(0, 2000)}... (${s.length} characters)` : s

async function fetchReply(
  url: string,
  req: ProbeRequest,
  headers: Record<string, string>,
  timeoutMs: number,
  started: number,
): Promise<Reply> {
  const signal = AbortSignal.timeout(timeoutMs)
  // A string body gets text/plain from fetch; bytes get no Content-Type, as the check asks.
  const body =
    req.body !== undefined && req.contentType === undefined ? Buffer.from(req.body) : req.body
  const res = await fetch(url, { method: req.method, headers, body, redirect: 'manual', signal })
  const text = await readCapped(res)
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = undefined
  }
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    text,
    json,
    ms: Date.now() - started,
  }
}

/** Reads at most 1 MiB: a hostile target may stream forever. */
async function readCapped(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size >= MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {})
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

function describeFailure(err: unknown, timeoutMs: number): Failure {
  const e = err as Error & { cause?: { code?: string; message?: string } }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return { kind: 'timeout', message: `no answer within ${timeoutMs} ms` }
  const code = e?.cause?.code ?? ''
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: 'connection refused' }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { kind: 'unreachable', message: `host not found (${code})` }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return { kind: 'reset', message: 'connection closed without an answer' }
  return {
    kind: 'error',
    message: `${e?.cause?.message ?? e?.message ?? String(err)}${code ? ` (${code})` : ''}`,
  }
}
