// The sandbox keeps and compares what a client sends exactly as sent, and a doc's exceptions
// ("compared ignoring case", "expired ones included") are what a reader builds on. A user doc
// that makes such a claim names the test that shows it (claims.ts lists each, with a text that
// test holds): a new claim fails until it is listed, a claim changed or gone leaves the list,
// and a claim nothing shows is how a doc comes to say what the code does not.
// And docs/CONTRACT.md's business order names its steps in their order.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { CLAIM_WORDS, CLAIMS, NORMALISES, SCOPES, WINDOWS } from './claims.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** Docs for the project's own developers: they describe code, not what the sandbox answers. */
const NOT_USER_DOCS = ['ARCHITECTURE.md', 'DESIGN.md', 'DEVELOPMENT.md', 'PERFORMANCE.md']
const USER_DOCS = [
  'README.md',
  'clients/python/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md') && !NOT_USER_DOCS.includes(name))
    .map((name) => `docs/${name}`),
]

interface Text {
  at: string
  line: string
}

const docLines: Text[] = USER_DOCS.flatMap((file) =>
  read(file)
    .split('\n')
    .map((line, i) => ({ at: `${file}:${i + 1}`, line })),
)

/** Every description and summary of a published document, where it stands in it. */
function described(document: unknown, at: string): Text[] {
  if (Array.isArray(document)) return document.flatMap((v, i) => described(v, `${at}/${i}`))
  if (document === null || typeof document !== 'object') return []
  return Object.entries(document).flatMap(([key, value]) =>
    (key === 'description' || key === 'summary') && typeof value === 'string'
      ? [{ at: `${at}/${key}`, line: value.replaceAll('\n', ' ') }]
      : described(value, `${at}/${key}`),
  )
}

/** "never trimmed", "not unique": the rule itself (kept as sent, no two alike needed), not an exception to it. */
const NEGATED = /\b(never|not|nor|no|without being)\s+$/i

let sb: TestSandbox
let texts: Text[]
let made: (Text & { words: string })[]
beforeAll(async () => {
  sb = await startTestSandbox()
  const published = await Promise.all(
    ['/openapi.json', '/_sandbox/openapi.json'].map(async (path) =>
      described((await sb.request('GET', path)).body, `${path}#`),
    ),
  )
  texts = [...docLines, ...published.flat()]
  made = texts.flatMap((text) =>
    CLAIM_WORDS.flatMap((words) =>
      [...text.line.matchAll(words)]
        .filter((m) => words === SCOPES || !NEGATED.test(text.line.slice(0, m.index)))
        .map((m) => ({ ...text, words: m[0] })),
    ),
  )
})
afterAll(() => sb.close())

it('a user doc makes a claim only where a listed test shows it', () => {
  const unlisted = made
    .filter(({ line }) => !CLAIMS.some((c) => line.includes(c.says)))
    .map(({ at, words, line }) => `${at}: "${words}" in: ${line.trim().slice(0, 160)}`)
  expect(
    unlisted,
    'a claim nothing lists: add it to CLAIMS (test/structure/claims.ts) with the test that shows it',
  ).toEqual([])
})

it('each listed claim is still made, and its test holds its example', () => {
  for (const claim of CLAIMS) {
    expect(
      made.some(({ line }) => line.includes(claim.says)),
      `no user doc says "${claim.says}" now: it leaves the list`,
    ).toBe(true)
    expect(read(claim.shownBy), `${claim.shownBy} shows "${claim.says}"`).toContain(claim.holding)
  }
})

it('sees the words it looks for (it cannot pass by matching nothing)', () => {
  const words = [
    'compared ignoring case',
    'keys are case-insensitive',
    'matched regardless of capitalisation',
    'spaces are trimmed',
    'with surrounding spaces removed',
    'normalised first',
    'lower-cased when loaded',
    '64 UTF-16 code units (an emoji counts two)',
    'its length counted in bytes',
  ]
  expect(words.filter((w) => !w.match(NORMALISES))).toEqual([])
  expect('kept exactly as sent, in lower case or upper case'.match(NORMALISES)).toBeNull()
  expect(NEGATED.test('kept as sent, never ')).toBe(true)
  const scopes = [
    'cancelled (expired ones not included)',
    'expired charges included',
    'refunds are excluded',
    'every status except for failed',
    'a field left out keeps its value',
    'it leaves out its own endpoints',
    'the time it waited is not counted',
  ]
  expect(scopes.filter((w) => !w.match(SCOPES))).toEqual([])
  expect('except SandboxRequestError as refused:'.match(SCOPES)).toBeNull()
  const windows = [
    "counts the company's charges of the last 30 days",
    'transfers of the past 24 hours',
    'every charge, whatever their age',
  ]
  expect(windows.filter((w) => !w.match(WINDOWS))).toEqual([])
  for (const document of ['/openapi.json#', '/_sandbox/openapi.json#'])
    expect(texts.filter(({ at }) => at.startsWith(document)).length).toBeGreaterThan(20)
})

it("docs/CONTRACT.md's business order names the balance, the key directory and the outcome, in order", () => {
  const row = read('docs/CONTRACT.md')
    .split('\n')
    .find((line) => line.startsWith('| business order |'))
  expect(row, 'docs/CONTRACT.md has a business order row').toBeDefined()
  const at = (words: string) => row!.indexOf(words)
  const [balance, directory, outcome] = [at('balance'), at('key directory'), at('the outcome')]
  expect([balance, directory, outcome].every((i) => i > 0)).toBe(true)
  expect(balance).toBeLessThan(directory)
  expect(directory).toBeLessThan(outcome)
  // Where each setting that fails a transfer stands in it, test/sandbox/settings.test.ts checks
  // beside what the setting does.
})
