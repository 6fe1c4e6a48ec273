// The sandbox keeps and compares what a client sends exactly as sent: its case, its spaces
// (docs/ARCHITECTURE.md, the every-field and settings tests hold each field and setting to it).
// A user doc that says something is compared ignoring case, trimmed, normalised or folded, or
// that a length is counted otherwise than in characters (code points), claims an exception to
// that rule, and a claim nothing shows is how a doc comes to say what the code does not. So
// each such claim is listed here with the test that shows it (a text that test
// holds, the claim's example); a new one fails until it is listed, and a claim gone leaves the list.
// And docs/CONTRACT.md's business order names its steps in their order.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

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

/**
 * Words that say the sandbox reads a value other than as it was sent, or counts its length
 * otherwise than in characters (code points: docs/CONTRACT.md, test/http/bounds.test.ts).
 */
const NORMALISES =
  /\bcode units?\b|\bcounts? (as )?two\b|\b(counted|measured) in bytes\b|ignor\w* (the )?case|case[- ]?insensitiv\w*|regardless of (case|capitali\w+)|\bin any case\b|\btrim(med|s|ming)?\b|surrounding (spaces|whitespace)|\bnormali[sz]\w*|folded to\b|\b(lower|upper)[- ]?cased\b|\bstripped\b/gi

/** Each claim a user doc makes (a text of its sentence), the test that shows it and what that test holds. */
const CLAIMS: { says: string; shownBy: string; holding: string }[] = [
  {
    says: 'media types compared case-insensitively',
    shownBy: 'test/readiness/findings.test.ts',
    holding: 'Application/JSON',
  },
  {
    says: 'counts as accepting JSON, in any case',
    shownBy: 'test/readiness/findings.test.ts',
    holding: "'*/*'",
  },
  {
    says: 'the scheme word is case-insensitive',
    shownBy: 'test/contract/auth.test.ts',
    holding: 'bAsIc',
  },
  {
    says: 'folded to ASCII',
    shownBy: 'test/contract/choices.test.ts',
    holding: 'folded to ASCII',
  },
]

const made = USER_DOCS.flatMap((file) =>
  read(file)
    .split('\n')
    .flatMap((line, i) =>
      [...line.matchAll(NORMALISES)].map((m) => ({
        at: `${file}:${i + 1}`,
        words: m[0],
        line,
      })),
    ),
)

it('a user doc says a value is read other than as sent only where a listed test shows it', () => {
  const unlisted = made
    .filter(({ line }) => !CLAIMS.some((c) => line.includes(c.says)))
    .map(({ at, words, line }) => `${at}: "${words}" in: ${line.trim().slice(0, 160)}`)
  expect(unlisted).toEqual([])
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
