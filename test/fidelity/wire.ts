// One raw HTTP exchange over a plain TCP socket: the bytes go out exactly as given, and the
// answer is parsed by hand, so no client library normalises the request or the response.
import net from 'node:net'

export interface Answer {
  /** 0 when no status line came back (the connection closed, or nothing came in time). */
  status: number
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>
  body: Buffer
  /** What ended the exchange when no complete answer came: 'closed' or 'timeout'. */
  ended?: 'closed' | 'timeout'
}

/**
 * Sends `bytes` on a new connection and reads one answer. `timeoutMs` is about a server that
 * hangs, not a slow one; `signal` ends the wait early (the caller knows no answer is coming), as
 * 'timeout' too.
 */
export function exchange(
  port: number,
  bytes: Buffer,
  { timeoutMs = 60_000, signal }: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Answer> {
  // A HEAD is answered with headers only, whatever Content-Length says.
  const head = bytes.subarray(0, 5).toString('latin1') === 'HEAD '
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    let received = Buffer.alloc(0)
    let settled = false
    const giveUp = () => finish('timeout')
    const finish = (ended?: 'closed' | 'timeout') => {
      if (settled) return
      const parsed = parseAnswer(received, { head, eof: ended !== undefined })
      if (!parsed && !ended) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', giveUp)
      socket.destroy()
      resolve(parsed ?? { status: 0, headers: {}, body: received, ended })
    }
    const timer = setTimeout(giveUp, timeoutMs)
    if (signal?.aborted) return giveUp()
    signal?.addEventListener('abort', giveUp)
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d])
      finish()
    })
    // A server may close right after writing its answer (Connection: close), or reset a
    // connection whose request it refused while bytes were still arriving.
    socket.on('error', () => finish('closed'))
    socket.on('close', () => finish('closed'))
  })
}

/**
 * Sends `bytes` to each port at once. A request that leaves every server waiting for more (a
 * body shorter than its Content-Length) gets no answer: once none has come from any server for
 * `quietMs`, each is taken as 'timeout'. Once one server has answered, the others are waited
 * for (up to the hang timeout), however long a loaded machine makes them take.
 */
export async function exchangeAll(
  ports: number[],
  bytes: Buffer,
  quietMs = 2000,
): Promise<Answer[]> {
  const quiet = new AbortController()
  const timer = setTimeout(() => quiet.abort(), quietMs)
  try {
    return await Promise.all(
      ports.map((port) =>
        exchange(port, bytes, { signal: quiet.signal }).then((a) => {
          if (a.status) clearTimeout(timer)
          return a
        }),
      ),
    )
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The first complete answer in `raw`, or undefined while more bytes are needed. `eof`: the
 * server has closed, so an answer without a length ends here.
 */
export function parseAnswer(
  raw: Buffer,
  opts: { head?: boolean; eof?: boolean } = {},
): Answer | undefined {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const lines = raw.subarray(0, end).toString('latin1').split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)
  if (!m) return undefined
  const status = Number(m[1])
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  }
  const rest = raw.subarray(end + 4)
  // 1xx answers (100 Continue) come before the real one.
  if (status >= 100 && status < 200) return parseAnswer(rest, opts)
  if (opts.head || status === 204 || status === 304)
    return { status, headers, body: Buffer.alloc(0) }
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
    const body = dechunk(rest)
    return body && { status, headers, body }
  }
  const length = headers['content-length']
  if (length === undefined) return opts.eof ? { status, headers, body: rest } : undefined
  if (rest.length < Number(length)) return undefined
  return { status, headers, body: rest.subarray(0, Number(length)) }
}

function dechunk(raw: Buffer): Buffer | undefined {
  const parts: Buffer[] = []
  let i = 0
  for (;;) {
    const eol = raw.indexOf('\r\n', i)
    if (eol < 0) return undefined
    const size = parseInt(raw.subarray(i, eol).toString('latin1'), 16)
    if (Number.isNaN(size)) return undefined
    if (size === 0) return raw.indexOf('\r\n', eol + 2) < 0 ? undefined : Buffer.concat(parts)
    if (raw.length < eol + 2 + size + 2) return undefined
    parts.push(raw.subarray(eol + 2, eol + 2 + size))
    i = eol + 2 + size + 2
  }
}
