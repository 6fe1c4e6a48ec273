// Runs a command of a user's (npm, npx, a toolchain) to its end, as the package tests do.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { HANG_MS } from '../hang.js'

const run = promisify(execFile)

export interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a command to its end; never throws on a non-zero exit. `timeout` is about a hang (test/hang.ts). */
export async function exec(
  cmd: string,
  args: string[],
  cwd: string,
  timeout = HANG_MS,
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(cmd, args, {
      cwd,
      timeout,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, NODE_OPTIONS: '' },
    })
    return { code: 0, stdout, stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof e.code === 'number' ? e.code : null,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    }
  }
}
