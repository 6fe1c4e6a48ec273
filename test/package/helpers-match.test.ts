// The control helpers are one set in two languages: the Node package's (src/client/control.ts) and
// the Python package's (clients/python/src/pix_sandbox/control.py, webhooks.py) have the same
// helpers, in each language's spelling; docs/PYTHON.md's table lists exactly those; a helper the
// docs name elsewhere is one of them; and each is called by its package's tests. All three are
// generated from src/client/helpers.ts, but for the helpers written by hand in each language (its
// `byHand` rows): one written in a language only, or a helper never called by a test, fails here.
// And every control operation has a helper, or a reason in NO_HELPER: a new route whose helpers
// were forgotten fails here too.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createControl } from '../../src/client/control.js'
import { HELPERS } from '../../src/client/helpers.js'
import { startTestSandbox } from '../harness.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const PACKAGE = 'clients/python/src/pix_sandbox'

/** What each language has for "any other endpoint": not a helper of one operation. */
const ANY_ENDPOINT = { node: 'api', python: 'call' }

/** The Node helpers, as `group.name` (or `name`), in Python's spelling. */
function nodeHelpers(): string[] {
  const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  const control = createControl('http://127.0.0.1:9', 'Bearer unused') as unknown as Record<
    string,
    unknown
  >
  return Object.entries(control).flatMap(([key, value]) =>
    key === ANY_ENDPOINT.node
      ? []
      : typeof value === 'function'
        ? [snake(key)]
        : Object.keys(value as object).map((name) => `${key}.${snake(name)}`),
  )
}

/** The Python helpers: `Control`'s public methods, and each helper group's, read with `ast` (bases included). */
function pythonHelpers(): string[] {
  const script = `
import ast, json, sys
classes = {}
for path in sys.argv[1:]:
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = node
def public(cls):
    own = [f.name for f in cls.body if isinstance(f, ast.FunctionDef) and not f.name.startswith("_")]
    bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in classes]
    return own + [name for base in bases for name in public(classes[base])]
control = classes["Control"]
helpers = public(control)
init = next(f for f in control.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
for stmt in init.body:
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
        group = stmt.targets[0].attr
        helpers += [group + "." + name for name in public(classes[stmt.value.func.id])]
print(json.dumps(helpers))
`
  const files = ['control.py', 'control_base.py', 'webhooks.py'].map((f) => join(ROOT, PACKAGE, f))
  const helpers = JSON.parse(
    execFileSync('python3', ['-c', script, ...files], { encoding: 'utf8' }),
  )
  return (helpers as string[]).filter((h) => h !== ANY_ENDPOINT.python)
}

/** The helpers docs/PYTHON.md's table names: `charges.get(id)` · `pay(...)` is charges.pay too. */
function documentedHelpers(): string[] {
  const doc = read('docs/PYTHON.md')
  const section = doc.slice(
    doc.indexOf('## The helpers'),
    doc.indexOf('\n## ', doc.indexOf('## The helpers') + 1),
  )
  // A row's first cell, up to its first unescaped `|` (`"success" \| "failed"` is inside one).
  return [...section.matchAll(/^\| (`(?:[^|\\]|\\\|)+?`) \|/gm)].flatMap((row) => {
    let group = ''
    return [...row[1]!.matchAll(/`([\w.]+)\(/g)].map((m) => {
      const [first, second] = m[1]!.split('.')
      if (second !== undefined) group = `${first}.`
      return second === undefined ? `${group}${first}` : m[1]!
    })
  })
}

const SETUP =
  'setting the sandbox up: scenario files, the CLI, the dashboard; a test calls it with `api`/`call`'
const LISTING =
  'a listing for people (the dashboard, curl); a test reads one record, or counts, with a helper'
const CHAOS = 'chaos for one subscription, from the dashboard or `api`/`call`'
const CLOCK =
  'a sandbox starts with its clock frozen (`startTime`, `--start-time`) and a test moves it with `clock.advance()`; `reset()` takes it back'
/** The control operations with no helper of their own, and why: a new one gets a helper or a line here (never a read of a tenant's own: below). */
const NO_HELPER: Record<string, string> = {
  'GET /whoami': 'what credentials are: a tenant knows its ids already',
  'GET /scenarios': SETUP,
  'POST /scenarios': SETUP,
  'GET /scenario': SETUP,
  'GET /companies': LISTING,
  'POST /companies': '`sandbox.tenant()` (Node and Python) makes a company with its credentials',
  'PATCH /companies/{company_id}': SETUP,
  'DELETE /companies/{company_id}': SETUP,
  'PUT /users/{user_id}/balance':
    'a tenant is made with its balance (`tenant({ balance })`, `tenant(balance=...)`); a change mid-test is `api`/`call`',
  'PUT /users/{user_id}/providers': SETUP,
  'GET /charges': LISTING,
  'GET /transfers': LISTING,
  'POST /pay': 'paying by code is what a payer does: `charges.pay()` takes the id a test has',
  'POST /provider-webhook':
    "a Provider's notification, sent as the Provider sends it (its own format)",
  'GET /outcomes': LISTING,
  'GET /faults': LISTING,
  'GET /clock': 'the virtual `now` is in `health()`',
  'POST /clock/freeze': CLOCK,
  'POST /clock/resume': CLOCK,
  'POST /clock/reset': CLOCK,
  'GET /events': LISTING,
  'GET /requests': LISTING,
  'DELETE /requests': 'the journal goes with `reset()`',
  'GET /webhooks': LISTING,
  'GET /webhooks/{webhook_id}': LISTING,
  'DELETE /webhooks/{webhook_id}': 'a subscription goes with `reset()`',
  'GET /webhooks/deliveries': '`webhooks.waitForDelivery()` reads it',
  'POST /webhooks/{webhook_id}/test':
    'a hand-made delivery for people checking a receiver: `webhooks.check()` for tests',
  'POST /webhooks/deliveries/{delivery_id}/retry':
    "the worker retries on the scenario's schedule: `clock.advance()`",
  'PUT /webhooks/{webhook_id}/chaos': CHAOS,
  'DELETE /webhooks/{webhook_id}/chaos': CHAOS,
}

const sorted = (names: string[]) => [...new Set(names)].sort()

/** Every file's text under `dir` whose name ends in `ext`. */
const texts = (dir: string, ext: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(ext))
    .map((f) => read(join(dir, f)))

describe('the control helpers', () => {
  it("are the same in Node and in Python, in each one's spelling", () => {
    const node = nodeHelpers()
    expect(node.length).toBeGreaterThan(15)
    expect(sorted(pythonHelpers())).toEqual(sorted(node))
  })

  it("are docs/PYTHON.md's table of helpers, exactly", () => {
    expect(sorted(documentedHelpers().filter((h) => h !== ANY_ENDPOINT.python))).toEqual(
      sorted(pythonHelpers()),
    )
  })

  it('cover every control operation, but those NO_HELPER names with the reason', async () => {
    const sb = await startTestSandbox()
    try {
      const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
      const operations = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      )
      const helped = HELPERS.flatMap((h) => ('operation' in h ? [h.operation as string] : []))
      expect(operations.filter((o) => !helped.includes(o) && !(o in NO_HELPER))).toEqual([])
      expect(
        Object.keys(NO_HELPER).filter((o) => !operations.includes(o) || helped.includes(o)),
      ).toEqual([])
      // What a test reads of its own tenant (a GET naming its company or its user) is what a
      // helper is for: no reason waives one.
      expect(
        Object.keys(NO_HELPER).filter((o) => /^GET .*\{(company_id|user_id)\}/.test(o)),
        "a read of a tenant's own, waived in NO_HELPER",
      ).toEqual([])
    } finally {
      await sb.close()
    }
  })

  it('are named as they are wherever the docs name them (README.md, CHANGELOG.md, docs/)', () => {
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    const helpers = new Set([...nodeHelpers(), ...Object.values(ANY_ENDPOINT)])
    const groups = new Set([...helpers].flatMap((h) => (h.includes('.') ? [h.split('.')[0]!] : [])))
    const docs = [
      'README.md',
      'CHANGELOG.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]
    // `control.pay(`, `control.charges.pay(`, `tenant.control.balance(` anywhere; a group's
    // `webhooks.check(` in a code span (in a Python block, `requests.post(` is the library's).
    const named = docs.flatMap((doc) => {
      const text = read(doc)
      const spans = [...text.matchAll(/`[^`\n]+`/g)].join('\n')
      return [
        ...[...text.matchAll(/\bcontrol\.((?:\w+\.)?\w+)\(/g)].map((m) => m[1]!),
        ...[...spans.matchAll(/(?<![\w.])(\w+)\.(\w+)\(/g)]
          .filter((m) => groups.has(m[1]!))
          .map((m) => `${m[1]}.${m[2]}`),
      ].map((name) => ({ doc, name }))
    })
    expect(named.length, 'the helpers the docs name are found').toBeGreaterThan(10)
    expect(
      named
        .filter(({ name }) => !helpers.has(name.split('.').map(snake).join('.')))
        .map(({ doc, name }) => `${doc}: ${name}(`),
      'helpers the docs name that neither package has',
    ).toEqual([])
  })

  it("are each called by their package's tests", () => {
    const camel = (name: string) => name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
    const nodeTests = texts('test', '.ts').join('\n')
    const pythonTests = texts('clients/python/tests', '.py').join('\n')
    // `charges.pay(` (a group's helper, however the control is named), `.balance(` (the control's own).
    const call = (helper: string) => (helper.includes('.') ? `${helper}(` : `.${helper}(`)
    const uncalled = pythonHelpers().flatMap((helper) => [
      ...(nodeTests.includes(call(camel(helper))) ? [] : [`Node: ${camel(helper)}()`]),
      ...(pythonTests.includes(call(helper)) ? [] : [`Python: ${helper}()`]),
    ])
    expect(uncalled).toEqual([])
  })
})
