// Reads scenario files (YAML, or JSON) and validates them. Every error names the file, the path
// inside the document (with its line when known) and the problem, and nothing is applied from
// a document that has one.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml'
import type { z } from 'zod'
import { compiledScenario } from './compiled.js'
import { scenarioSchema, type Scenario } from './schema.js'

export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source}: ${problems.join('; ')}`)
    this.name = 'ScenarioError'
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
const EXTENSIONS = ['.yaml', '.yml', '.json']

export interface ScenarioInfo {
  name: string
  description: string
}

/** `companies[0].users[1].balance` */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)),
    '',
  )
}

/** Validates a parsed document; `lineOf` maps a path to its line in the source when known. */
export function validateScenario(
  document: unknown,
  source: string,
  lineOf: (path: PropertyKey[]) => number | undefined = () => undefined,
): Scenario {
  const parsed = scenarioSchema.safeParse(document ?? {})
  if (parsed.success) return parsed.data
  throw new ScenarioError(
    source,
    parsed.error.issues.map((i) => describeIssue(i, lineOf)),
  )
}

function describeIssue(
  issue: z.core.$ZodIssue,
  lineOf: (path: PropertyKey[]) => number | undefined,
): string {
  const path = issue.path as PropertyKey[]
  const line = lineOf(path)
  const where = (path.length ? formatPath(path) : '(document)') + (line ? ` (line ${line})` : '')
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : issue.message
  return `${where}: ${message}`
}

/** Parses YAML (JSON is YAML too) and validates it. */
export function parseScenarioText(text: string, source: string): Scenario {
  return readScenarioText(text, source).scenario
}

/**
 * Parses and validates, and gives the document as written too (defaults not filled in): what
 * `POST /_sandbox/scenarios {document}` applies on top of the state, a setting left out kept.
 */
export function readScenarioText(
  text: string,
  source: string,
): { document: unknown; scenario: Scenario } {
  const lines = new LineCounter()
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false })
  if (doc.errors.length) {
    const problems = doc.errors.map(
      (e) => `line ${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}`,
    )
    throw new ScenarioError(source, problems)
  }
  const lineOf = (path: PropertyKey[]) => {
    // The deepest node that exists on the path: a missing field reports its parent's line.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth) as (string | number)[], true) as Node | undefined
      if (node && (node.range || isMap(node) || isSeq(node)))
        return node.range ? lines.linePos(node.range[0]).line : undefined
    }
    return undefined
  }
  const document: unknown = doc.toJS({ maxAliasCount: 100 })
  return { document, scenario: validateScenario(document, source, lineOf) }
}

/** The file of scenario `name` in `dir`, if there is one. */
export function scenarioFile(dir: string, name: string): string | undefined {
  if (!NAME.test(name)) return undefined
  const files = new Set(readdirSync(dir))
  const ext = EXTENSIONS.find((e) => files.has(name + e))
  return ext && join(dir, name + ext)
}

export function readScenario(dir: string, name: string): Scenario {
  let file: string | undefined
  try {
    file = scenarioFile(dir, name)
  } catch (err) {
    throw new ScenarioError(dir, [`cannot read the scenarios folder: ${(err as Error).message}`])
  }
  if (!file)
    throw new ScenarioError(join(dir, name), [
      `no scenario named "${name}" (looked for ${EXTENSIONS.map((e) => name + e).join(', ')})`,
    ])
  // Parsing and validating is most of a reset (~2 of ~5 ms for the default scenario): a file
  // is parsed again only when it changed. Callers get a copy they may keep or change.
  const { mtimeMs, size } = statSync(file)
  const cached = parsed.get(file)
  if (cached?.mtimeMs === mtimeMs && cached.size === size) return structuredClone(cached.scenario)
  const text = readFileSync(file, 'utf8')
  const scenario = compiledScenario(text) ?? parseScenarioText(text, file)
  parsed.set(file, { mtimeMs, size, scenario: structuredClone(scenario) })
  return scenario
}

const parsed = new Map<string, { mtimeMs: number; size: number; scenario: Scenario }>()

export function scenarioExists(dir: string, name: string): boolean {
  try {
    return scenarioFile(dir, name) !== undefined
  } catch {
    return false
  }
}

/** Every scenario in the folder with its description; unreadable files are listed with the error. */
export function listScenarios(dir: string): ScenarioInfo[] {
  const names = readdirSync(dir)
    .filter((f) => EXTENSIONS.some((e) => f.endsWith(e)) && !f.endsWith('.schema.json'))
    .map((f) => f.slice(0, f.lastIndexOf('.')))
    .filter((n) => NAME.test(n))
  return [...new Set(names)].sort().map((name) => {
    try {
      return { name, description: readScenario(dir, name).description }
    } catch (err) {
      return { name, description: `(invalid: ${(err as Error).message})` }
    }
  })
}
