// The load generator of `npm run bench`, the same one for the sandbox and its baseline. wrk (from
// Debian, `apt-get install wrk`) when it is installed: on two cores the generator competes with
// the server, and wrk's C event loop takes a fraction of the CPU autocannon's JavaScript does, so
// it disturbs the figures least. autocannon otherwise, so that the bench runs anywhere.
// BENCH_LOADGEN=autocannon|wrk chooses.
import { execFileSync, execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'

export type Target = {
  name: string
  path: string
  method: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}
export type Figures = { rps: number; p50: number; p99: number; non2xx: number }
export type LoadGenerator = 'wrk' | 'autocannon'

const hasWrk = (): boolean => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' })
    return true
  } catch (err) {
    // wrk --version prints its usage and exits 1: installed all the same.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}

export const LOAD_GENERATOR: LoadGenerator = ((): LoadGenerator => {
  const asked = process.env.BENCH_LOADGEN
  if (asked === 'wrk' || asked === 'autocannon') return asked
  return hasWrk() ? 'wrk' : 'autocannon'
})()

async function withAutocannon(
  url: string,
  t: Target,
  seconds: number,
  connections: number,
): Promise<Figures> {
  const r = await autocannon({
    url: url + t.path,
    method: t.method,
    body: t.body,
    headers: t.headers,
    connections,
    duration: seconds,
  })
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors + r.timeouts,
  }
}

const scripts = mkdtempSync(join(tmpdir(), 'pix-bench-wrk-'))
const lua = (s: string) => JSON.stringify(s) // a JSON string is a valid Lua string literal for these bodies

/** The request as a wrk script: method, body and headers. */
function scriptOf(t: Target): string {
  const file = join(scripts, `${t.name.replace(/\W+/g, '-')}.lua`)
  const lines = [`wrk.method = ${lua(t.method)}`]
  if (t.body !== undefined) lines.push(`wrk.body = ${lua(t.body)}`)
  for (const [k, v] of Object.entries(t.headers ?? {}))
    lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`)
  writeFileSync(file, lines.join('\n') + '\n')
  return file
}

const millis = (text: string): number => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text)
  if (!m) throw new Error(`wrk: unreadable latency ${text}`)
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n
}

async function withWrk(
  url: string,
  t: Target,
  seconds: number,
  connections: number,
): Promise<Figures> {
  const { stdout } = await promisify(execFile)('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    scriptOf(t),
    url + t.path,
  ])
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)
  const p50 = /^\s+50%\s+(\S+)/m.exec(stdout)
  const p99 = /^\s+99%\s+(\S+)/m.exec(stdout)
  if (!rps || !p50 || !p99) throw new Error(`wrk: unreadable output\n${stdout}`)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0)
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
  const failed = errors ? errors.slice(1).reduce((a, x) => a + Number(x), 0) : 0
  return {
    rps: Number(rps[1]),
    p50: Math.round(millis(p50[1]!) * 100) / 100,
    p99: Math.round(millis(p99[1]!) * 100) / 100,
    non2xx: non2xx + failed,
  }
}

/** `connections` keep-alive connections against `url + t.path` for `seconds`. */
export const drive = (
  url: string,
  t: Target,
  seconds: number,
  connections: number,
): Promise<Figures> =>
  LOAD_GENERATOR === 'wrk'
    ? withWrk(url, t, seconds, connections)
    : withAutocannon(url, t, seconds, connections)
