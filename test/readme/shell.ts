// A doc's shell examples, run as a reader runs them: in order, in one shell (exports carry over,
// state builds up), against a server started with the doc's own settings (from the sources, on a
// free port and a new in-memory store, as a first start has). Every command must succeed, and
// every answer must show what the doc prints below it (`# {...}`), but for the values that differ
// at every run (ids, times, codes, generated names).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import type { Block } from './readme.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** Commands a doc shows that these tests do not run: installing, testing, building images. */
const NOT_RUN = /^([A-Z_]+=\S+ )*(npm|npx|docker)\b/
/** How long a doc's commands may take together before they are taken as hung. */
const SHELL_MS = 40_000
/** Fields whose values differ at every run. */
const VOLATILE = new Set([
  'transaction_id',
  'qr_code',
  'expiration_date',
  'created_at',
  'updated_at',
  'now',
  'at',
  'id',
  'end_to_end_id',
  'reference',
])
/** A value holding an id of this run (a transfer's, a charge's) wherever it is shown: a path. */
const RUN_ID = /E0{8}\d{12}\w{11}|\b[A-Za-z0-9]{32}\b/

export interface Step {
  command: string
  /** The answer the doc prints below (or beside) the command, if any. */
  shown: string
  line: number
}

/** The commands of a shell block (continuation lines joined) and the output comments after each. */
export function steps(code: string, firstLine: number): Step[] {
  const out: Step[] = []
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    if (line.startsWith('#')) {
      // An answer: `# {...}` and its continuation lines (`#  ...`); other comments are prose.
      const last = out.at(-1)
      if (last && (/^# [{[]/.test(line) || (last.shown && /^# {2}/.test(line))))
        last.shown += `${last.shown ? '\n' : ''}${line.slice(2).trim()}`
      continue
    }
    let command = line
    const at = firstLine + 1 + i
    while (command.endsWith('\\') && i + 1 < lines.length)
      command = command.slice(0, -1) + lines[++i]!
    const inline = /\s#\s*([{[].*)$/.exec(command)
    out.push({ command, shown: inline ? inline[1]! : '', line: at })
  }
  return out
}

/**
 * `"key":value` pairs shown with a whole literal value (not cut with "..."), volatile ones left
 * out: those of VOLATILE, and the doc's own (`volatile`: what it says differs at every run).
 */
export const shownPairs = (shown: string, volatile: string[] = []) =>
  [...shown.matchAll(/"([a-z_]+)":(-?\d+(?:\.\d+)?|true|false|null|"(?:[^"\\]|\\.)*")/g)]
    .filter(([, key]) => !VOLATILE.has(key!) && !volatile.includes(key!))
    .filter(([, , value]) => !value!.includes('...'))
    .filter(([, , value]) => !RUN_ID.test(value!))
    .map(([pair]) => pair!)

/** An answer is JSON, or JSON lines (`jq -c` of several values). */
const isJson = (answer: string) => {
  const parses = (text: string) => {
    try {
      JSON.parse(text)
      return true
    } catch {
      return false
    }
  }
  return parses(answer) || answer.split('\n').every(parses)
}

/** The `VAR=value` settings of the doc's start command (`... npm start`), or a failure naming its line. */
export function startSettings(block: Block, command: RegExp): Record<string, string> {
  const start = command.exec(block.code)
  expect(start, `the doc's first command starts the server (line ${block.line})`).not.toBeNull()
  return Object.fromEntries(
    start![1]!
      .trim()
      .split(/\s+/)
      .map((a) => a.split('=') as [string, string]),
  )
}

/** Starts the server with `env`, runs `blocks`' shell steps in one bash, and checks every answer. */
export async function runDocShell(
  doc: string,
  blocks: Block[],
  env: Record<string, string>,
  volatile: string[] = [],
): Promise<Step[]> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...env,
      PORT: '0',
      DATABASE: ':memory:',
      SCENARIOS_DIR: '',
      PUBLIC_URL: '',
      SEED: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stopped = new Promise((resolve) => server.once('exit', resolve))
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = ''
      server.stdout.on(
        'data',
        (d) =>
          (out += d) &&
          /listening on http:\/\/[\d.]+:(\d+)/.test(out) &&
          resolve(/:(\d+)\n/.exec(out)![1]!),
      )
      server.stderr.on('data', (d) => (out += d))
      server.once('exit', (code) => reject(new Error(`the server exited ${code}: ${out}`)))
    })

    const run = blocks.flatMap((b) => steps(b.code, b.line)).filter((s) => !NOT_RUN.test(s.command))
    const script = run
      .map(
        (s, n) =>
          `${s.command.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}\nprintf '\\n@@step ${n} %s@@\\n' "$?"`,
      )
      .join('\n')
    // Its own process group, ended whole if a step never returns (a server started in the
    // foreground would outlive the test and hold its port).
    const shell = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      detached: true,
    })
    const hung = setTimeout(() => process.kill(-shell.pid!, 'SIGKILL'), SHELL_MS)
    let output = ''
    shell.stdout.on('data', (d) => (output += d))
    shell.stderr.on('data', (d) => (output += d))
    const exit = await new Promise((resolve) => shell.once('exit', (code) => resolve(code)))
    clearTimeout(hung)
    expect(exit, `the doc's commands, ended after ${SHELL_MS} ms:\n${output}`).toBe(0)

    const answers = output.split(/\n?@@step \d+ (\d+)@@\n/)
    for (const [n, step] of run.entries()) {
      const [answer, code] = [answers[2 * n]!.trim(), answers[2 * n + 1]]
      const where = `${doc} line ${step.line}: ${step.command}\n${answer}`
      expect(code, where).toBe('0')
      if (step.command.startsWith('curl')) expect(isJson(answer), where).toBe(true)
      for (const pair of shownPairs(step.shown, volatile)) expect(answer, where).toContain(pair)
    }
    return run
  } finally {
    server.kill('SIGTERM')
    await stopped
  }
}
