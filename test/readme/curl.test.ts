// The README's shell examples, run in the README's order in one shell against a server started as
// its quick start says (its variables; from the sources, on a free port and a new in-memory store,
// as a first start has): every command succeeds, and every answer shows what the README prints
// below it, but for the values that differ at every run (ids, times, codes). A newcomer's first
// control-plane call answered 401 because the quick start set no admin token.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { readmeBlocks } from './readme.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** Commands the README shows but this test does not run: installing, testing, building images. */
const NOT_RUN = /^(npm|npx|docker)\b/
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

interface Step {
  command: string
  /** The answer the README prints below (or beside) the command, if any. */
  shown: string
  line: number
}

/** The commands of a shell block (continuation lines joined) and the output comments after each. */
function steps(code: string, firstLine: number): Step[] {
  const out: Step[] = []
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.trim() === '') continue
    if (line.startsWith('#')) {
      // An answer: `# {...}` and its continuation lines (`#  ...`); other comments are prose.
      const last = out.at(-1)
      if (last && (/^# [{[]/.test(line) || (last.shown && /^# {2}/.test(line))))
        last.shown += line.slice(2).trim()
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

/** `"key":value` pairs shown with a whole literal value (not cut with "..."), volatile keys left out. */
const shownPairs = (shown: string) =>
  [...shown.matchAll(/"([a-z_]+)":(-?\d+(?:\.\d+)?|true|false|null|"(?:[^"\\]|\\.)*")/g)]
    .filter(([, key, value]) => !VOLATILE.has(key!) && !value!.includes('...'))
    .map(([pair]) => pair!)

it('runs every shell example of the README, in order, as a newcomer would after its quick start', async () => {
  const blocks = readmeBlocks().filter((b) => b.lang === 'sh')
  const quickStart = blocks[0]!
  const start = /^npm ci && ((?:[A-Z_]+=\S+ )+)npm start\b/m.exec(quickStart.code)
  expect(
    start,
    `the README's first command starts the server with its settings (line ${quickStart.line})`,
  ).not.toBeNull()
  const env = Object.fromEntries(
    start![1]!
      .trim()
      .split(/\s+/)
      .map((a) => a.split('=') as [string, string]),
  )
  expect(Object.keys(env)).toContain('SANDBOX_ADMIN_TOKEN')

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

    const all = blocks.flatMap((b) => steps(b.code, b.line))
    const run = all.filter((s) => !NOT_RUN.test(s.command))
    expect(run.filter((s) => s.command.startsWith('curl')).length).toBeGreaterThanOrEqual(8)
    // One shell for all of them, as a reader's terminal: exports carry over, state builds up.
    const script = run
      .map(
        (s, n) =>
          `${s.command.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}\nprintf '\\n@@step ${n} %s@@\\n' "$?"`,
      )
      .join('\n')
    const shell = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    })
    let output = ''
    shell.stdout.on('data', (d) => (output += d))
    shell.stderr.on('data', (d) => (output += d))
    expect(await new Promise((resolve) => shell.once('exit', resolve))).toBe(0)

    const answers = output.split(/\n?@@step \d+ (\d+)@@\n/)
    for (const [n, step] of run.entries()) {
      const [answer, code] = [answers[2 * n]!.trim(), answers[2 * n + 1]]
      const where = `README.md line ${step.line}: ${step.command}\n${answer}`
      expect(code, where).toBe('0')
      if (step.command.startsWith('curl')) expect(() => JSON.parse(answer), where).not.toThrow()
      for (const pair of shownPairs(step.shown)) expect(answer, where).toContain(pair)
    }
  } finally {
    server.kill('SIGTERM')
    await stopped
  }
}, 60_000)
