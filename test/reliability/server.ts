// Crash, soak and overload drive the built server as a separate process (so it can be killed with
// SIGKILL and measured from outside), on a file store in a temporary folder. Concurrency and the
// fuzz test run the sandbox in the test's own process (test/harness.ts) and use only tempDir here.
import { execSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT, SERVER_ARGS, startProcess, type Proc } from '../../bench/processes.js'

export const ADMIN_TOKEN = 'reliability-admin-token-0123456789'
export const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`

let built = false
export function buildOnce(): void {
  if (built) return
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
  built = true
}

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export function startServer(database: string, env: Record<string, string> = {}): Promise<Proc> {
  buildOnce()
  return startProcess(
    SERVER_ARGS,
    { DATABASE: database, LOG_LEVEL: 'error', SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
    '/_sandbox/health',
  )
}

export async function call(
  base: string,
  method: string,
  path: string,
  json?: unknown,
  auth = AUTH,
  timeoutMs = 10_000,
) {
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: auth,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

export const admin = (base: string, method: string, path: string, json?: unknown) =>
  call(base, method, `/_sandbox${path}`, json, `Bearer ${ADMIN_TOKEN}`)
