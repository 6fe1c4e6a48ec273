// Starting and watching the processes the benchmark and the reliability suite drive.
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

export const ROOT = new URL('..', import.meta.url).pathname

/** Node's arguments for the production server, as `npm start` gives them (flags, then the file). */
export const SERVER_ARGS: string[] = (() => {
  const start: string = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).scripts.start
  const [node, ...args] = start.split(/\s+/)
  if (node !== 'node') throw new Error(`npm start should run node, not: ${start}`)
  return args
})()

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

export interface Proc {
  child: ChildProcess
  port: number
  url: string
  /** Milliseconds from spawn to the first 200 on the readiness path. */
  startMs: number
  output: () => string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Spawns `node <args>` and waits until `readyPath` answers 200. */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  timeoutMs = 20_000,
): Promise<Proc> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}):\n${out}`)
    if (performance.now() - started > timeoutMs)
      throw new Error(`no answer on ${readyPath} within ${timeoutMs} ms:\n${out}`)
    try {
      const res = await fetch(url + readyPath)
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2))
  }
  const startMs = performance.now() - started
  return {
    child,
    port,
    url,
    startMs,
    output: () => out,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        child.kill(signal)
      }),
  }
}

/** Resident set size of a process, in bytes, now (`VmRSS`) and at its peak (`VmHWM`). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

/** Open file descriptors of a process (sockets, files): a proxy for leaked handles. */
export function openHandles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length
}
