// The differential: the same raw requests, sent to the sandbox and to a plain FastAPI app of the
// contract under uvicorn (reference_app.py), once on each of uvicorn's HTTP backends (h11 and
// httptools), must get the same answers as one of them, but for the deviations docs/CONTRACT.md
// lists. Each phase runs its cases twice: from a fixed seed, the same requests every run, and
// from a seed drawn for the run and printed, so that each run also tries requests no run tried
// before. FIDELITY_SEED replays a drawn seed, FIDELITY_REQUESTS sets how many cases for each
// seed across the phases (default 1,000: 2,000 cases, 6,000 requests, in all; 300 under
// `npm run test:fast`, which a maintainer runs after each change, where the drawn seed still
// tries new requests every run). Locally without Python it skips; in CI (CI set) it must run.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HANG_MS } from '../hang.js'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { differences, seen, type Seen } from './compare.js'
import { DEVIATIONS, type Style } from './deviations.js'
import { generate, type Case } from './generator.js'
import {
  pythonVersion,
  referencePython,
  startReference,
  type Backend,
  type Reference,
} from './reference.js'
import { Rng } from './rng.js'
import { exchangeAll, type Answer } from './wire.js'
import { FAST_TIER_RUN } from '../../vitest.tiers.js'

const TOTAL = Number(process.env.FIDELITY_REQUESTS ?? (FAST_TIER_RUN ? 300 : 1000))
const FIXED_SEED = 36
const DRAWN_SEED = Number(process.env.FIDELITY_SEED ?? Math.floor(Math.random() * 2 ** 31))
const SEEDS = [FIXED_SEED, DRAWN_SEED]
const BACKENDS: Backend[] = ['h11', 'httptools']
const python = referencePython()
if ('missing' in python) {
  if (process.env.CI)
    throw new Error(
      `The differential test needs Python 3 with venv and pip (CI runs it): ${python.missing}`,
    )
  console.warn(`test/fidelity: the differential against FastAPI is skipped: ${python.missing}`)
} else
  console.log(
    `test/fidelity: seeds ${FIXED_SEED} (fixed) and ${DRAWN_SEED} (drawn; FIDELITY_SEED=${DRAWN_SEED} replays it)`,
  )

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
  /** The h11 backend's answer, then httptools'. */
  reference: Seen
  other: Seen
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

function report(phase: Phase, seed: number, failures: Failure[]): string {
  const classes = new Map<string, Failure[]>()
  for (const f of failures) {
    const key = `${f.c.kind.replace(/ body:.*/, '')} | ${f.diff.join(',')} | ${f.sandbox.status}/${f.reference.status}`
    classes.set(key, [...(classes.get(key) ?? []), f])
  }
  const lines = [
    `${failures.length} answers differ in the ${phase.name} phase (seed ${seed}: FIDELITY_SEED=${seed} replays it), in ${classes.size} classes:`,
  ]
  for (const [key, list] of classes) {
    const f = list[0]!
    lines.push(
      `\n[${list.length}x] ${key}`,
      `  request:   ${show(f.c.bytes)}`,
      `  sandbox:   ${showSeen(f.sandbox)}`,
      `  h11:       ${showSeen(f.reference)}`,
      `  httptools: ${showSeen(f.other)}`,
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
      let references: Reference[]
      let version: [number, number]
      beforeAll(async () => {
        const py = (python as { python: string }).python
        version = pythonVersion(py)
        const env = { STRICT_CONTENT_TYPE: phase.strictContentType ? '1' : '0' }
        ;[sandbox, ...references] = await Promise.all([
          startTestSandbox(),
          ...BACKENDS.map((http) => startReference(py, env, http)),
        ])
        sandbox.apply({
          settings: {
            validation_errors: phase.style,
            strict_content_type: phase.strictContentType,
          },
        })
      }, HANG_MS)
      afterAll(async () => {
        await Promise.all([sandbox?.close(), ...(references ?? []).map((r) => r.close())])
      })

      for (const seed of SEEDS) {
        const count = Math.round(TOTAL * phase.share)
        it(
          `answers ${count} generated requests alike (seed ${seed})`,
          async () => {
            const rng = new Rng(seed + PHASES.indexOf(phase))
            const failures: Failure[] = []
            // FIDELITY_STATS=1: what the cases met (statuses, deviations used), to see the coverage.
            const stats = new Map<string, number>()
            const tally = (key: string) => stats.set(key, (stats.get(key) ?? 0) + 1)
            for (let i = 0; i < count; i++) {
              const c = generate(rng)
              // One at a time, to all at once: the states (balances) see the same sequence.
              const [a, ...b] = (await exchangeAll(
                [sandbox.port, ...references.map((r) => r.port)],
                c.bytes,
              )) as [Answer, ...Answer[]]
              const s = seen(a, sandbox.port)
              const [r, o] = b.map((x, k) => seen(x, references[k]!.port)) as [Seen, Seen]
              tally(`reference ${r.status || r.ended}`)
              const diffs = [r, o].map((x) =>
                differences(s, x).filter(
                  (k) => !(phase.style === 'simple' && k === 'body' && isValidationList(x)),
                ),
              )
              if (diffs.some((d) => !d.length)) {
                if (diffs[0]!.length) tally('as httptools only')
                continue
              }
              const deviation = DEVIATIONS.find((d) =>
                d.applies(c, s, r, { style: phase.style, python: version }),
              )
              if (deviation) {
                tally(`deviation: ${deviation.row}`)
                continue
              }
              failures.push({ c, sandbox: s, reference: r, other: o, diff: diffs[0]! })
            }
            if (process.env.FIDELITY_STATS)
              console.log(phase.name, seed, Object.fromEntries([...stats].sort()))
            expect(failures.length, report(phase, seed, failures)).toBe(0)
            // Each exchange is bounded (wire.ts): this only bounds the whole against a hang.
          },
          Math.min(2 ** 31 - 1, HANG_MS + count * 60_000),
        )
      }
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
