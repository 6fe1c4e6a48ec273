// The examples under examples/ are projects of their own (their own package.json and lockfile), as
// a user would copy them. Tests run them with their own dependencies, installed when missing.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const exampleDir = (name: string) =>
  fileURLToPath(new URL(`../../examples/${name}/`, import.meta.url))

export interface Ran {
  code: number | null
  stdout: string
  output: string
}

/** Runs a command without blocking this process (a sandbox in it may have to answer). */
export function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let output = ''
    child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)))
    child.stderr.on('data', (d: Buffer) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, output }))
  })
}

/** Whether every package of the example's lockfile is installed at its locked version. */
function installed(dir: string): boolean {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; optional?: boolean; link?: boolean }>
  }
  return Object.entries(lock.packages).every(([path, p]) => {
    if (path === '' || p.optional || p.link) return true
    const manifest = join(dir, path, 'package.json')
    return (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === p.version
    )
  })
}

/** Installs the example's dependencies from its lockfile unless they already are. */
export async function installExample(dir: string): Promise<void> {
  if (installed(dir)) return
  console.info(`${dir}: installing its dependencies (npm ci)`)
  const r = await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir)
  if (r.code !== 0) throw new Error(`npm ci in ${dir} failed:\n${r.output}`)
}
