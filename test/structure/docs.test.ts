// The docs that map the code stay true to it, and the project cites its own docs only:
// - no code or doc cites the internal specification the project was built from ("Part F",
//   "A3", "SANDBOX.md"): readers have docs/CONTRACT.md#..., docs/READINESS.md#... instead;
// - every path docs/ARCHITECTURE.md, docs/DESIGN.md and docs/decisions/ name exists, and every
//   function ARCHITECTURE.md names is defined (in the file it names beside it, where it does);
// - DESIGN.md says why each file of src over 200 lines is not split, and names no shorter one;
// - docs/CONTROL-PLANE.md#scenario-files lists every scenario setting with its default, and a
//   setting it says acts before or after a step of CONTRACT.md's business order is placed there;
// - docs/CONTRACT.md#where-the-contract-is-silent gives every message a transfer may answer with
//   (each text src/domain/transfer.ts exports), all in its transfer `message` row;
// - docs/CONTRACT.md#body-rules names every field of the contract's request bodies (and each
//   bound the document publishes for one is the number its rule gives, as is a length a doc's
//   table gives for one in a row of its own), and every
//   control route is shown with an example in CONTROL-PLANE.md or WEBHOOKS.md (both read from the
//   published documents, so a new field or route is covered without being named here);
// - CHANGELOG.md names every control route, contract request field and scenario setting, but
//   those 0.1.0 shipped before it named each (NAMED_BEFORE, which only shrinks).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as transferRules from '../../src/domain/transfer.js'
import { DEFAULT_SETTINGS } from '../../src/scenarios/settings.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

const SKIP = new Set(['node_modules', 'dist', 'target', 'build', '__pycache__', 'reports'])
const TEXT = /\.(ts|tsx|mjs|js|py|md|go|java|ya?ml|toml|sh)$/

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith('.')) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else if (TEXT.test(entry.name)) yield path
  }
}

/**
 * How the specification's sections were cited: its parts ("Part F"), their numbered sections
 * ("A3", "(F4)", "A3's"), the file itself, and "the specification". Letters C0/C1 (control
 * characters) and hex or ids inside other text are not citations.
 */
const CITATION =
  /\bPart [A-G]\b|SANDBOX\.md|\bthe specification\b|(?<=^|[\s(])[ABDEFG][1-9](?=[\s),.:;']|$)|\([A-G]\)/m

describe('citations', () => {
  it('name our own docs, never the internal specification', () => {
    const scanned = [
      ...['src', 'docs', 'clients', 'scripts', 'bench', 'examples'].flatMap((d) => [...files(d)]),
      'README.md',
      'CHANGELOG.md',
    ]
    const found = scanned.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    )
    expect(found).toEqual([])
  })

  it('are recognised by the check (it cannot pass by matching nothing)', () => {
    for (const text of [
      'the order of checks of A3,',
      'Readiness (Part F)',
      '(F4)',
      "Part A3's",
      'see SANDBOX.md',
      '(B) authorization',
    ]) {
      expect(CITATION.test(text), text).toBe(true)
    }
    for (const text of [
      'C0, DEL and C1',
      'color: #A1B2C3',
      '"transaction_id":"E1"',
      'E2E ids',
      'pedido A10',
    ]) {
      expect(CITATION.test(text), text).toBe(false)
    }
  })
})

/** Paths of the repository a doc names in backticks (placeholders such as `<name>` left out). */
const ROOTS = /^(src|test|docs|scripts|bench|clients|examples|scenarios)\//
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!)
    .filter((p) => ROOTS.test(p) && !/[<*{]/.test(p))
}

/** GitHub's heading ids of a Markdown file (as test/readme/links.test.ts computes them). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>()
  const ids = new Set<string>()
  for (const [, heading] of read(file)
    .replace(/^```[\s\S]*?^```/gm, '')
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    ids.add(n === 0 ? base : `${base}-${n}`)
  }
  return ids
}

/** A path of the repository that exists, and, for `file.md#anchor`, a heading of that file. */
function resolves(reference: string): boolean {
  const [path, anchor] = reference.split('#') as [string, string | undefined]
  if (!existsSync(join(ROOT, path))) return false
  return anchor === undefined || !path.endsWith('.md') || anchors(path).has(anchor)
}

const MAP_DOCS = [
  'docs/ARCHITECTURE.md',
  'docs/DESIGN.md',
  ...readdirSync(join(ROOT, 'docs/decisions')).map((f) => `docs/decisions/${f}`),
]

describe('the map of the code', () => {
  it.each(MAP_DOCS)('%s names only paths that exist', (doc) => {
    const missing = namedPaths(read(doc)).filter((p) => !resolves(p))
    expect(missing).toEqual([])
  })

  /** Where `name` is defined in a file's text: a function, a const, a method or a property. */
  const defines = (text: string, name: string) =>
    new RegExp(
      `^\\s*(?:export\\s+)?(?:async\\s+)?(?:function\\*?\\s+${name}\\b|(?:const|let)\\s+${name}\\b|${name}\\s*(?:<[^>\\n]*>)?\\([^)\\n]*\\)[^\\n]*\\{\\s*$|${name}\\s*(?:<[^>\\n]*>)?\\(\\s*$|${name}\\s*:)`,
      'm',
    ).test(text)
  const sources = [...files('src'), ...files('test')].filter((f) => /\.tsx?$/.test(f))
  const architecture = read('docs/ARCHITECTURE.md')

  it('DESIGN.md#files-over-200-lines names every file of src over 200 lines, and only those', () => {
    const design = read('docs/DESIGN.md')
    const section = design.slice(
      design.indexOf('## Files over 200 lines'),
      design.indexOf('\n## ', design.indexOf('## Files over 200 lines') + 3),
    )
    const GENERATED = 'src/client/openapi.ts'
    const named = new Set(namedPaths(section).filter((p) => /^src\/.*\.tsx?$/.test(p)))
    named.delete(GENERATED)
    const long = [...files('src')]
      .filter((f) => /\.tsx?$/.test(f) && f !== GENERATED)
      .filter((f) => read(f).split('\n').length - 1 > 200)
    expect(long.length, 'files over 200 lines').toBeGreaterThan(0)
    expect(
      long.filter((f) => !named.has(f)),
      'over 200 lines, not said why',
    ).toEqual([])
    expect(
      [...named].filter((f) => !long.includes(f)),
      'named, but 200 lines or fewer',
    ).toEqual([])
  })

  it('ARCHITECTURE.md names only functions that exist', () => {
    const names = [
      ...new Set([...architecture.matchAll(/`(?:[\w.]+\.)?(\w+)\(\)`/g)].map((m) => m[1]!)),
    ]
    expect(names.length).toBeGreaterThan(30)
    const texts = sources.map((f) => read(f))
    expect(names.filter((name) => !texts.some((t) => defines(t, name)))).toEqual([])
  })

  it('ARCHITECTURE.md names each function beside the file that defines it', () => {
    // `fn()` (`path`) and `fn()`, `path`: the function is that file's.
    const pairs = [
      ...architecture.matchAll(/`(?:[\w.]+\.)?(\w+)\(\)`[\s,(]*`((?:src|test)\/[^`]+\.tsx?)`/g),
    ].map((m) => [m[1]!, m[2]!] as const)
    expect(pairs.length).toBeGreaterThan(20)
    expect(
      pairs
        .filter(([name, file]) => !existsSync(join(ROOT, file)) || !defines(read(file), name))
        .map(([n, f]) => `${n} in ${f}`),
    ).toEqual([])
  })

  it('ARCHITECTURE.md draws the layers of the import check, in its order', () => {
    // LAYERS of imports.test.ts, read from its text: each layer's name and the pattern of its files
    // (on one line or, as the formatter writes a long one, on two).
    const layers = [
      ...read('test/structure/imports.test.ts').matchAll(
        /^\s+\[\s*'([^']+)',\s*\/(.+)\/,?\s*\],$/gm,
      ),
    ].map((m) => ({ name: m[1]!, files: new RegExp(m[2]!) }))
    const start = architecture.indexOf('```\n') + 4
    const picture = architecture
      .slice(start, architecture.indexOf('```', start))
      .trimEnd()
      .split('\n')
    // Each line: the layer's name, then its files (relative to src/ after the first), then a remark in brackets.
    const drawn = picture.map((line) =>
      line
        .split('(')[0]!
        .trim()
        .split(/\s{2,}|\s(?=src\/)/)
        .slice(1)
        .join(' ')
        .split(/\s+/)
        .filter((t) => t && t !== '...'),
    )
    expect(layers.length).toBeGreaterThan(5)
    expect(drawn.length).toBe(layers.length)
    const misplaced = drawn.flatMap((paths, i) =>
      paths
        .map((p) => (p.startsWith('src/') ? p : `src/${p}`))
        .map((p) => (p.endsWith('/') ? `${p}x.ts` : p))
        .filter((p) => layers.findIndex((l) => l.files.test(p)) !== i)
        .map((p) => `${p} drawn in "${layers[i]!.name}"`),
    )
    expect(misplaced).toEqual([])
  })
})

describe('references to our docs in code, tests and scripts', () => {
  it('point at a file and a heading that exist (docs/CONTRACT.md#order-of-checks)', () => {
    const scanned = ['src', 'test', 'clients', 'scripts', 'bench']
      .flatMap((d) => [...files(d)])
      .filter((f) => !f.endsWith('.md'))
    const broken = scanned.flatMap((file) =>
      [...read(file).matchAll(/\b((?:docs\/[\w./-]+|README)\.md(?:#[\w-]+)?)/g)]
        .map((m) => m[1]!)
        .filter((ref) => !resolves(ref))
        .map((ref) => `${file}: ${ref}`),
    )
    expect(broken).toEqual([])
  })
})

/** Each row of docs/CONTROL-PLANE.md#scenario-files: the setting, its default, and what it says. */
const settingRows = () =>
  [
    ...read('docs/CONTROL-PLANE.md')
      .split('## Scenario files')[1]!
      .matchAll(/^\| `(\w+)` \| `([^`]+)` \|(.*)$/gm),
  ].map(([, name, value, said]) => ({ name: name!, value: value!, said: said! }))

describe('docs/CONTROL-PLANE.md#scenario-files', () => {
  it('lists every scenario setting with its default', () => {
    const rows = new Map(settingRows().map(({ name, value }) => [name, value]))
    const shown = (v: unknown) => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v))
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(DEFAULT_SETTINGS).map(([k, v]) => [k, shown(v)])),
    )
  })

  it("gives each setting's bounds as the scenario files' schema does", () => {
    const settings = JSON.parse(read('scenarios/scenario.schema.json')).properties.settings
      .properties as Record<string, unknown>
    for (const { name, said } of settingRows()) {
      if (!(name in settings)) continue
      const bounds = new Set<number>()
      const walk = (s: unknown): void => {
        for (const [k, v] of Object.entries(s && typeof s === 'object' ? s : {}))
          if (/^(max|min)(Length|Items|imum)$/.test(k) && typeof v === 'number') bounds.add(v)
          else walk(v)
      }
      walk(settings[name])
      // "at most 100 keys", "up to 20", "1-100 characters"
      for (const [, ...numbers] of said.matchAll(
        /\b(?:at most|up to|at least|no more than) ([\d,]+)|\b(\d+)-(\d+) (?:characters|code points|keys|items)/gi,
      ))
        for (const n of numbers.filter(Boolean).map((n) => Number(n.replaceAll(',', ''))))
          expect([...bounds], `${name}: CONTROL-PLANE.md says ${n}`).toContain(n)
    }
  })

  it("places each setting it says comes before or after a step where CONTRACT.md's business order does", () => {
    const order = read('docs/CONTRACT.md')
      .split('\n')
      .find((line) => line.startsWith('| business order |'))!
    // "balance first (...), then the key directory (...), then the outcome (...)": each step's
    // name, and the settings its parentheses name.
    const steps = order
      .slice('| business order |'.length)
      .split(/, then /)
      .map((step) => ({
        name: step
          .split(' (')[0]!
          .replace(/^\s*(the )?/, '')
          .replace(/ first$/, ''),
        settings: [...step.matchAll(/`(\w+)/g)].map((m) => m[1]!),
      }))
    expect(steps.map((s) => s.name).slice(0, 2)).toEqual(['balance', 'key directory'])
    const stepOf = (setting: string) => steps.findIndex((s) => s.settings.includes(setting))
    for (const { name, said } of settingRows())
      for (const [, where, what] of said.matchAll(/\b(before|after) (?:the )?([\w ]+)/g)) {
        const step = steps.findIndex((s) => what!.startsWith(s.name))
        if (step < 0) continue
        expect(
          stepOf(name),
          `${name}: CONTROL-PLANE.md places it ${where} the ${steps[step]!.name}, a step of CONTRACT.md's business order, which does not name it`,
        ).toBeGreaterThanOrEqual(0)
        expect(
          where === 'before' ? stepOf(name) < step : stepOf(name) > step,
          `${name}: CONTROL-PLANE.md says ${where} the ${steps[step]!.name}; CONTRACT.md's business order does not`,
        ).toBe(true)
      }
  })
})

/** What the first release shipped before CHANGELOG.md named each: never added to, only removed from. */
const NAMED_BEFORE = [
  'route /health',
  'route /whoami',
  'route /requests/count',
  'route /companies/{company_id}',
  'route /users/{user_id}/providers',
  'route /users/{user_id}/balance',
  'route /charges',
  'route /charges/{transaction_id}',
  'route /charges/{transaction_id}/pay',
  'route /charges/{transaction_id}/expire',
  'route /charges/{transaction_id}/cancel',
  'route /transfers',
  'route /transfers/{transaction_id}',
  'route /transfers/{transaction_id}/settle',
  'route /outcomes',
  'route /clock',
  'route /clock/advance',
  'route /clock/freeze',
  'route /clock/resume',
  'route /webhooks',
  'route /webhooks/{webhook_id}',
  'route /webhooks/deliveries',
  'route /webhooks/deliveries/{delivery_id}/retry',
  'route /webhooks/{webhook_id}/test',
  'route /webhooks/{webhook_id}/chaos',
  'field payload',
  'setting charge_ttl_seconds',
  'setting timezone',
  'setting validation_errors',
  'setting webhook_retry_seconds',
]

describe('docs/CONTRACT.md#where-the-contract-is-silent', () => {
  it("gives every message a transfer may answer with, in its row: each text of the domain's transfer rules", () => {
    const doc = read('docs/CONTRACT.md')
    const section = doc.slice(doc.indexOf('## Where the contract is silent'))
    // The row that lists them, so a reader finds them all in one place.
    const row = section.split('\n').find((line) => line.startsWith('| transfer `message` |')) ?? ''
    const messages = Object.values(transferRules).flatMap((value) =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'object' && value !== null
          ? Object.values(value).filter((v): v is string => typeof v === 'string')
          : [],
    )
    expect(messages.length).toBeGreaterThan(4)
    expect(messages.filter((m) => !row.includes(`\`${m}\``))).toEqual([])
  })
})

describe('the published documents, in the docs', () => {
  type Json = Record<string, any>
  let sb: TestSandbox
  const docs: Record<string, Json> = {}
  beforeAll(async () => {
    sb = await startTestSandbox()
    docs.contract = (await sb.request('GET', '/openapi.json')).body
    docs.control = (await sb.request('GET', '/_sandbox/openapi.json')).body
  })
  afterAll(() => sb.close())

  /** Every field of the contract's request bodies, as its document publishes them. */
  const requestFields = () => {
    const ref = (s: Json) => docs.contract!.components.schemas[s.$ref.split('/').pop()]
    return Object.values<Json>(docs.contract!.paths).flatMap((ops) =>
      Object.values<Json>(ops).flatMap((op) =>
        op.requestBody
          ? Object.keys(ref(op.requestBody.content['application/json'].schema).properties)
          : [],
      ),
    )
  }

  /** Each number the document publishes as a bound of a request field (a length, a minimum...). */
  const requestBounds = () => {
    const ref = (s: Json) => docs.contract!.components.schemas[s.$ref.split('/').pop()]
    const BOUNDS = ['maxLength', 'minLength', 'maximum', 'minimum', 'maxItems', 'minItems']
    return Object.values<Json>(docs.contract!.paths).flatMap((ops) =>
      Object.values<Json>(ops).flatMap((op) =>
        op.requestBody
          ? Object.entries<Json>(
              ref(op.requestBody.content['application/json'].schema).properties,
            ).flatMap(([field, schema]) =>
              [schema, ...(schema.anyOf ?? [])].flatMap((s: Json) =>
                BOUNDS.filter((b) => typeof s[b] === 'number').map((b) => ({
                  field,
                  bound: s[b] as number,
                })),
              ),
            )
          : [],
      ),
    )
  }

  it("docs/CONTRACT.md#body-rules says what each field of the contract's request bodies must be", () => {
    const doc = read('docs/CONTRACT.md')
    const section = doc.slice(
      doc.indexOf('## Body rules'),
      doc.indexOf('\n## ', doc.indexOf('## Body rules') + 1),
    )
    // The fields a rule's lead names, before its colon: "- `pix_type` and `pix_key` (transfers):".
    const ruled = new Set(
      [...section.matchAll(/^- ([^:]+):/gm)].flatMap((m) =>
        [...m[1]!.matchAll(/`(\w+)`/g)].map((f) => f[1]!),
      ),
    )
    const fields = requestFields()
    expect(fields.length).toBeGreaterThan(4)
    expect([...new Set(fields)].filter((f) => !ruled.has(f))).toEqual([])
    // And each bound the document publishes for a field is the number its rule gives.
    const rules = section.split(/\n(?=- )/)
    const wrong = requestBounds().filter(({ field, bound }) => {
      const rule = rules.find((r) => new RegExp(`^- [^:]*\`${field}\``).test(r)) ?? ''
      return !new RegExp(`\\b${bound}\\b`).test(rule.replace(/\s+/g, ' '))
    })
    expect(wrong).toEqual([])
  })

  it("gives a request field's length, wherever a user doc gives it, as the contract's document bounds it", () => {
    const maxima = new Map<string, number[]>()
    for (const { field, bound } of requestBounds())
      maxima.set(field, [...(maxima.get(field) ?? []), bound])
    const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter(
      (f) => f.endsWith('.md'),
    )
    // A table's row whose first cell names one field:
    // "| `description` length | 140 Unicode code points |".
    const said = docs.flatMap((doc) =>
      read(doc)
        .split('\n')
        .flatMap((line, i) => {
          const [, head, rest] = /^\| ([^|]+) \|(.*)$/.exec(line) ?? []
          const named = [...(head ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]!)
          const [field] = named
          if (named.length !== 1 || !maxima.has(field!)) return []
          return [...rest!.matchAll(/\b([\d,]+) (?:Unicode )?(?:code points|characters)\b/g)].map(
            (m) => ({ at: `${doc}:${i + 1}`, field: field!, n: Number(m[1]!.replaceAll(',', '')) }),
          )
        }),
    )
    expect(said.length, 'the lengths the docs give are found').toBeGreaterThan(0)
    expect(
      said.filter(({ field, n }) => !maxima.get(field)!.includes(n)),
      "lengths a doc gives that the contract's document does not",
    ).toEqual([])
  })

  it('CHANGELOG.md names every control route, contract request field and scenario setting', () => {
    const changelog = read('CHANGELOG.md')
    const fields = requestFields()
    const escaped = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    const surface: [string, RegExp][] = [
      // A path with its ids however written ({company_id}, <company_id>, loja-exemplo), ending
      // where the text does: `/companies/{company_id}/summary` names no `/companies/{company_id}`.
      ...Object.keys(docs.control!.paths).map((route): [string, RegExp] => [
        `route ${route}`,
        new RegExp(
          `${escaped(route).replace(/\{\w+\}/g, '[^/\\s`]+')}(?=[\\s\`'"),.;:?\\]]|$)`,
          'm',
        ),
      ]),
      ...[...new Set(fields)].map((f): [string, RegExp] => [`field ${f}`, new RegExp(`\`${f}\``)]),
      ...Object.keys(DEFAULT_SETTINGS).map((s): [string, RegExp] => [
        `setting ${s}`,
        new RegExp(`\\b${s}\\b`),
      ]),
    ]
    const unnamed = surface.filter(([, named]) => !named.test(changelog)).map(([name]) => name)
    expect(unnamed.filter((name) => !NAMED_BEFORE.includes(name))).toEqual([])
    // An entry named since, or gone, leaves the list.
    expect(NAMED_BEFORE.filter((name) => !unnamed.includes(name))).toEqual([])
  })

  it('every control route is shown, with its path, in CONTROL-PLANE.md or WEBHOOKS.md', () => {
    // Every `$SB/...` address of the two, and `.../last` beside one, as the last segment swapped.
    const shown = ['docs/CONTROL-PLANE.md', 'docs/WEBHOOKS.md'].flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line) => {
          const urls = [...line.matchAll(/\$SB(\/[^\s"'`)?]*)|\.\.\.(\/[\w-]+)/g)]
          let last = ''
          return urls.map((m) => {
            if (m[1]) return (last = m[1])
            return last.replace(/\/[^/]+$/, m[2]!)
          })
        }),
    )
    const routes = Object.keys(docs.control!.paths)
    expect(routes.length).toBeGreaterThan(30)
    const unshown = routes.filter((route) => {
      const pattern = new RegExp(`^${route.replace(/\{\w+\}/g, '[^/]+')}$`)
      return !shown.some((url) => pattern.test(url))
    })
    expect(unshown).toEqual([])
  })
})
