// The differential: the same raw requests, sent to the sandbox and to a plain FastAPI app of the
// contract under uvicorn (reference_app.py), must get the same answers, but for the deviations
// docs/CONTRACT.md lists. FIDELITY_REQUESTS sets how many cases (default 2,000 across the
// phases), FIDELITY_SEED the seed. Locally without Python it skips; in CI (CI set) it must run.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { differences, seen, type Seen } from './compare.js'
import { DEVIATIONS, type Style } from './deviations.js'
import { generate, type Case } from './generator.js'
import { pythonVersion, referencePython, startReference, type Reference } from './reference.js'
import { Rng } from './rng.js'
import { exchange } from './wire.js'

const TOTAL = Number(process.env.FIDELITY_REQUESTS ?? 2000)
const SEED = Number(process.env.FIDELITY_SEED ?? 36)
const python = referencePython()
if ('missing' in python) {
  if (process.env.CI)
    throw new Error(
      `The differential test needs Python 3 with venv and pip (CI runs it): ${python.missing}`,
    )
  console.warn(`test/fidelity: the differential against FastAPI is skipped: ${python.missing}`)
}

interface Phase {
  name: string
  style: Style
  strictContentType: boolean
  share: number
}

const PHASES: Phase[] = [
  { name: 'fastapi style', style: 'fastapi', strictContentType: true, share: 0.6 },
  { name: 'simple style', style: 'simple', strictContentType: true, share: 0.3 },
  { name: 'strict_content_type: false', style: 'fastapi', strictContentType: false, share: 0.1 },
]

interface Failure {
  c: Case
  sandbox: Seen
  reference: Seen
  diff: string[]
}

const show = (bytes: Buffer, max = 700) => {
  const text = JSON.stringify(bytes.subarray(0, max).toString('latin1'))
  return bytes.length > max ? `${text} ... (${bytes.length} bytes)` : text
}
const showSeen = (s: Seen) =>
  JSON.stringify({
    ...s,
    body: s.body.length > 700 ? `${s.body.slice(0, 700)}... (${s.body.length})` : s.body,
  })

function report(phase: Phase, failures: Failure[]): string {
  const classes = new Map<string, Failure[]>()
  for (const f of failures) {
    const key = `${f.c.kind.replace(/ body:.*/, '')} | ${f.diff.join(',')} | ${f.sandbox.status}/${f.reference.status}`
    classes.set(key, [...(classes.get(key) ?? []), f])
  }
  const lines = [
    `${failures.length} answers differ in the ${phase.name} phase, in ${classes.size} classes:`,
  ]
  for (const [key, list] of classes) {
    const f = list[0]!
    lines.push(
      `\n[${list.length}x] ${key}`,
      `  request:   ${show(f.c.bytes)}`,
      `  sandbox:   ${showSeen(f.sandbox)}`,
      `  reference: ${showSeen(f.reference)}`,
    )
  }
  return lines.join('\n')
}

describe.skipIf('missing' in python)('the sandbox answers as FastAPI under uvicorn', () => {
  it('lists every deviation of docs/CONTRACT.md in the test, and nothing more', () => {
    const doc = readFileSync(new URL('../../docs/CONTRACT.md', import.meta.url), 'utf8')
    const section = doc.slice(doc.indexOf('\n## Deviations'))
    const table = section.slice(0, section.indexOf('\n## ', 1) >>> 0)
    const rows = [...table.matchAll(/^\| ([^|]+?) \|/gm)]
      .map((m) => m[1]!)
      .filter((r) => r !== 'deviation' && !/^-+$/.test(r))
    expect(rows.sort()).toEqual(DEVIATIONS.map((d) => d.row).sort())
  })

  for (const phase of PHASES) {
    describe(phase.name, () => {
      let sandbox: TestSandbox
      let reference: Reference
      let version: [number, number]
      beforeAll(async () => {
        version = pythonVersion((python as { python: string }).python)
        ;[sandbox, reference] = await Promise.all([
          startTestSandbox(),
          startReference((python as { python: string }).python, {
            STRICT_CONTENT_TYPE: phase.strictContentType ? '1' : '0',
          }),
        ])
        sandbox.apply({
          settings: {
            validation_errors: phase.style,
            strict_content_type: phase.strictContentType,
          },
        })
      }, 300_000)
      afterAll(async () => {
        await Promise.all([sandbox?.close(), reference?.close()])
      })

      it(`answers ${Math.round(TOTAL * phase.share)} generated requests alike`, async () => {
        const rng = new Rng(SEED + PHASES.indexOf(phase))
        const failures: Failure[] = []
        const count = Math.round(TOTAL * phase.share)
        // FIDELITY_STATS=1: what the cases met (statuses, deviations used), to see the coverage.
        const stats = new Map<string, number>()
        const tally = (key: string) => stats.set(key, (stats.get(key) ?? 0) + 1)
        for (let i = 0; i < count; i++) {
          const c = generate(rng)
          // One at a time, to both at once: the two states (balances) see the same sequence.
          const [a, b] = await Promise.all([
            exchange(sandbox.port, c.bytes),
            exchange(reference.port, c.bytes),
          ])
          const s = seen(a, sandbox.port)
          const r = seen(b, reference.port)
          tally(`reference ${r.status || r.ended}`)
          const diff = differences(s, r).filter(
            (k) => !(phase.style === 'simple' && k === 'body' && isValidationList(r)),
          )
          if (!diff.length) continue
          const deviation = DEVIATIONS.find((d) =>
            d.applies(c, s, r, { style: phase.style, python: version }),
          )
          if (deviation) {
            tally(`deviation: ${deviation.row}`)
            continue
          }
          failures.push({ c, sandbox: s, reference: r, diff })
        }
        if (process.env.FIDELITY_STATS)
          console.log(phase.name, Object.fromEntries([...stats].sort()))
        expect(failures.length, report(phase, failures)).toBe(0)
      }, 120_000)
    })
  }
})

/** A FastAPI list of validation errors: in the simple style only its status is compared. */
function isValidationList(s: Seen): boolean {
  if (s.status !== 422) return false
  try {
    return Array.isArray((JSON.parse(s.body) as { detail?: unknown }).detail)
  } catch {
    return false
  }
}
