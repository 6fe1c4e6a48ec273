// Crash, soak and overload drive the built server as a separate process (so it can be killed with
// SIGKILL and measured from outside), on a file store in a temporary folder. Concurrency and the
// fuzz test run the sandbox in the test's own process (test/harness.ts) and use only tempDir here.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVER_ARGS, startProcess, type Proc } from '../../bench/processes.js'
import { HANG_MS } from '../hang.js'

export const ADMIN_TOKEN = 'reliability-admin-token-0123456789'
export const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The server from the sources, for npm test's files: dist/ may be older than a change (test/reliability/build.ts says why nothing rebuilds it there). */
export const FROM_SOURCES = ['--import', 'tsx', 'src/main.ts']

/** The built server by default (the reliability suite builds dist/ first: test/reliability/build.ts). */
export function startServer(
  database: string,
  env: Record<string, string> = {},
  args = SERVER_ARGS,
): Promise<Proc> {
  return startProcess(
    args,
    { DATABASE: database, LOG_LEVEL: 'error', SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
    '/_sandbox/health',
    HANG_MS, // about a hang (test/hang.ts): tsx's start from the sources takes seconds under load
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
