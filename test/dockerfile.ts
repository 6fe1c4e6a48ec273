// Reads a Dockerfile as the tests need it: its stages, their instructions (continuations joined,
// comments dropped), commands in exec or shell form, ENV and leading flags, and the `docker run`
// its header gives. Shared by the Dockerfile recipe (followed on the host) and the recipes that
// must agree with it (compose).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../src/config.js'
import { hostAllowance } from '../src/http/host-guard.js'

export interface Instruction {
  keyword: string
  args: string
  line: number
}

export interface Stage {
  name: string
  base: string
  instructions: Instruction[]
}

/** Splits a Dockerfile into instructions: joins `\` continuations, drops comments and blanks. */
export function parseInstructions(text: string): Instruction[] {
  const out: Instruction[] = []
  let pending = ''
  let start = 0
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim()
    // Comment lines are dropped, even inside a continued instruction (as Docker does).
    if (trimmed.startsWith('#') || (trimmed === '' && pending === '')) return
    if (pending === '') start = i + 1
    if (trimmed.endsWith('\\')) {
      pending += trimmed.slice(0, -1) + ' '
      return
    }
    const full = (pending + trimmed).trim()
    pending = ''
    if (full === '') return
    const m = /^(\S+)\s*(.*)$/s.exec(full)!
    out.push({ keyword: m[1]!.toUpperCase(), args: m[2]!.trim(), line: start })
  })
  if (pending.trim() !== '') throw new Error('Dockerfile ends inside a continued line')
  return out
}

export function parseStages(text: string): Stage[] {
  const stages: Stage[] = []
  for (const ins of parseInstructions(text)) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args)
      if (!m) throw new Error(`line ${ins.line}: cannot read FROM ${ins.args}`)
      stages.push({ base: m[1]!, name: m[2] ?? String(stages.length), instructions: [] })
    } else {
      const stage = stages.at(-1)
      if (!stage) throw new Error(`line ${ins.line}: ${ins.keyword} before any FROM`)
      stage.instructions.push(ins)
    }
  }
  return stages
}

/** Exec form (a JSON array) or shell form (run by /bin/sh -c, Docker's default SHELL). */
export function commandOf(args: string): { exec: boolean; argv: string[] } {
  if (args.startsWith('[')) {
    const argv = JSON.parse(args) as unknown
    if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string')) {
      throw new Error(`not an exec-form command: ${args}`)
    }
    return { exec: true, argv }
  }
  return { exec: false, argv: ['/bin/sh', '-c', args] }
}

/** Splits on blanks, honouring double and single quotes and backslash escapes. */
export function words(s: string): string[] {
  const out: string[] = []
  let cur: string | undefined
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (/\s/.test(c)) {
      if (cur !== undefined) out.push(cur)
      cur = undefined
    } else if (c === '"' || c === "'") {
      const end = s.indexOf(c, i + 1)
      if (end < 0) throw new Error(`unbalanced quote in: ${s}`)
      cur = (cur ?? '') + s.slice(i + 1, end).replace(c === '"' ? /\\(.)/g : /$^/, '$1')
      i = end
    } else if (c === '\\' && i + 1 < s.length) {
      cur = (cur ?? '') + s[++i]
    } else {
      cur = (cur ?? '') + c
    }
  }
  if (cur !== undefined) out.push(cur)
  return out
}

export function noVariables(ins: Instruction): void {
  if (ins.args.includes('$'))
    throw new Error(`line ${ins.line}: this test does not expand variables in ${ins.keyword}`)
}

/** ENV KEY=value KEY2="value 2", or the old ENV KEY value. */
export function parseEnv(ins: Instruction): Record<string, string> {
  noVariables(ins)
  const ws = words(ins.args)
  if (ws.length > 0 && !ws[0]!.includes('=')) {
    return { [ws[0]!]: ins.args.slice(ins.args.indexOf(ws[0]!) + ws[0]!.length).trim() }
  }
  return Object.fromEntries(
    ws.map((w) => {
      const eq = w.indexOf('=')
      if (eq <= 0) throw new Error(`line ${ins.line}: cannot read ENV ${ins.args}`)
      return [w.slice(0, eq), w.slice(eq + 1)]
    }),
  )
}

/** Leading --name=value flags of COPY and HEALTHCHECK. */
export function flagsOf(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {}
  let rest = args
  for (
    let m: RegExpExecArray | null;
    (m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest));
    rest = rest.slice(m[0].length)
  )
    flags[m[1]!] = m[2] ?? ''
  return { flags, rest }
}

const dockerfileText = () =>
  readFileSync(fileURLToPath(new URL('../Dockerfile', import.meta.url)), 'utf8')

/** The repository's Dockerfile, its stages parsed. */
export function repositoryDockerfile(): Stage[] {
  return parseStages(dockerfileText())
}

export interface RunRecipe {
  /** The command, whitespace normalised. */
  command: string
  /** `-p` values. */
  published: string[]
  /** `-v` values. */
  volumes: string[]
  /** `-e NAME=value` values. */
  env: Record<string, string>
}

/** The `docker run` of the Dockerfile's header (the comment lines at its top), read. */
export function recipeRun(): RunRecipe {
  const header = dockerfileText()
    .split('\n')
    .filter((l) => l.startsWith('#'))
    .map((l) => l.replace(/^#\s*/, ''))
  const command = header
    .flatMap((l) => l.split('&&'))
    .map((c) => c.trim().replace(/\s+/g, ' '))
    .find((c) => c.startsWith('docker run '))
  if (!command) throw new Error("the Dockerfile's header gives no docker run")
  const argv = words(command)
  const values = (flag: string) => argv.flatMap((a, i) => (a === flag ? [argv[i + 1]!] : []))
  const env = Object.fromEntries(
    values('-e').map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  )
  return { command, published: values('-p'), volumes: values('-v'), env }
}

/**
 * The Host guard of a container started with this environment (docs/SECURITY.md#dns-rebinding):
 * whether a Host header is answered, or undefined when the guard is off and any is.
 */
export function containerHostGuard(
  env: Record<string, string>,
): ((host: string) => boolean) | undefined {
  return hostAllowance(loadConfig(env))
}

export interface ImageSettings {
  env: Record<string, string>
  user: string | undefined
  volumes: string[]
  exposed: string[]
  healthcheck: { argv: string[]; flags: Record<string, string> } | undefined
}

/** What the last stage declares for the container (not inherited from its base image). */
export function imageSettings(stages: Stage[]): ImageSettings {
  const out: ImageSettings = {
    env: {},
    user: undefined,
    volumes: [],
    exposed: [],
    healthcheck: undefined,
  }
  for (const ins of stages.at(-1)?.instructions ?? []) {
    const list = () =>
      ins.args.startsWith('[') ? (JSON.parse(ins.args) as string[]) : words(ins.args)
    if (ins.keyword === 'ENV') Object.assign(out.env, parseEnv(ins))
    else if (ins.keyword === 'USER') out.user = ins.args
    else if (ins.keyword === 'VOLUME') out.volumes.push(...list())
    else if (ins.keyword === 'EXPOSE') out.exposed.push(...list())
    else if (ins.keyword === 'HEALTHCHECK') {
      const { flags, rest } = flagsOf(ins.args)
      const m = /^CMD\s+(.*)$/is.exec(rest)
      out.healthcheck = m ? { argv: commandOf(m[1]!).argv, flags } : undefined
    }
  }
  return out
}
