// The readiness report as a JUnit XML file, so that CI pages show it: one test case per behaviour
// (met: passed; not met: skipped, with how to meet it), one per finding of the catalog (not seen:
// passed; seen at or above --fail-on: failed; below: skipped, with its example and advice), one
// for the coverage gate when --min-coverage is given, and one (skipped) for the calls still in
// flight when the wait for them ran out. Written by hand: a dozen lines of
// escaping, where a JUnit library would bring a dependency for the same text.
import type { Readiness } from '../http/sandbox/records/readiness.js'
import { FINDINGS } from './catalog.js'
import { failsOn, underCoverage, type Gate } from './gate.js'
import { inFlightText } from './summary.js'

// XML 1.0 has no way to write most control characters: they are dropped, like a terminal's escapes.
// eslint-disable-next-line no-control-regex
const ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g
const xml = (text: string) =>
  text
    .replace(ILLEGAL, '')
    .replace(
      /[&<>"']/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
    )

interface Case {
  name: string
  /** `failure` or `skipped`, with its message and body; nothing: passed. */
  outcome?: { kind: 'failure' | 'skipped'; message: string; body?: string }
}

function suite(name: string, cases: Case[]): string {
  const failures = cases.filter((c) => c.outcome?.kind === 'failure').length
  const skipped = cases.filter((c) => c.outcome?.kind === 'skipped').length
  const body = cases.map((c) => {
    const head = `    <testcase classname="${xml(name)}" name="${xml(c.name)}" time="0"`
    if (!c.outcome) return `${head}/>`
    const { kind, message, body: text } = c.outcome
    const inner =
      kind === 'failure'
        ? `<failure message="${xml(message)}" type="readiness">${xml(text ?? message)}</failure>`
        : `<skipped message="${xml(message)}"/>`
    return `${head}>\n      ${inner}\n    </testcase>`
  })
  return `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${body.join('\n')}\n  </testsuite>`
}

export function junitXml(r: Readiness, gate: Gate): string {
  const behaviours: Case[] = r.behaviours.map((b) => ({
    name: b.id,
    outcome: b.met ? undefined : { kind: 'skipped', message: `not met; how: ${b.how}` },
  }))
  const findings: Case[] = FINDINGS.map((spec) => {
    const f = r.findings.find((x) => x.id === spec.id)
    if (!f) return { name: `${spec.id} (${spec.severity})` }
    const message = `seen ${f.count} time${f.count === 1 ? '' : 's'}: ${f.example.method} ${f.example.path}: ${f.example.seen}`
    const where = f.example.company_id === null ? '' : `, company ${f.example.company_id}`
    const body = `${message}\nfirst seen ${f.example.wall_time} (virtual time ${f.example.time}${where})\nadvice: ${f.advice}`
    return {
      name: `${f.id} (${f.severity})`,
      outcome: failsOn(f.severity, gate.failOn)
        ? { kind: 'failure', message, body }
        : { kind: 'skipped', message: `${message}; advice: ${f.advice}` },
    }
  })
  const suites = [suite('readiness.behaviours', behaviours), suite('readiness.findings', findings)]
  if (gate.minCoverage !== undefined) {
    const message = `${r.coverage.met} of ${r.coverage.total} behaviours met (${r.coverage.percent}%), --min-coverage ${gate.minCoverage}`
    suites.push(
      suite('readiness.coverage', [
        {
          name: `coverage >= ${gate.minCoverage}%`,
          outcome: underCoverage(r, gate) ? { kind: 'failure', message } : undefined,
        },
      ]),
    )
  }
  // Only when the wait for calls in flight ran out: the verdict did not see them.
  const flying = r.in_flight?.calls ?? 0
  if (flying)
    suites.push(
      suite('readiness.run', [
        { name: 'calls in flight', outcome: { kind: 'skipped', message: inFlightText(flying) } },
      ]),
    )
  const all =
    behaviours.length +
    findings.length +
    (gate.minCoverage === undefined ? 0 : 1) +
    (flying ? 1 : 0)
  const failures = (suites.join('').match(/<failure /g) ?? []).length
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="pix-sandbox readiness" tests="${all}" failures="${failures}" errors="0">\n${suites.join('\n')}\n</testsuites>\n`
}
