// Whether a readiness report passes a CI gate: coverage at least --min-coverage, and no finding
// at or above --fail-on (docs/READINESS.md#exec-any-suite-in-ci). Used by `exec`, by `readiness` and by the JUnit file.
import type { Readiness } from '../http/sandbox/records/readiness.js'
import { SEVERITIES, severityRank } from './catalog.js'

export const FAIL_ON = [...SEVERITIES.filter((s) => s !== 'info'), 'never'] as const
export type FailOn = (typeof FAIL_ON)[number]

export interface Gate {
  /** 0-100; undefined: coverage does not gate. */
  minCoverage?: number
  failOn: FailOn
}

/** A finding's severity is at or above `failOn`. */
export const failsOn = (
  severity: Readiness['findings'][number]['severity'],
  failOn: FailOn,
): boolean => failOn !== 'never' && severityRank(severity) <= severityRank(failOn)

/** Coverage is under the gate's minimum (compared exactly, not on the rounded percent). */
export const underCoverage = (r: Readiness, gate: Gate): boolean =>
  gate.minCoverage !== undefined && r.coverage.met * 100 < gate.minCoverage * r.coverage.total

/** Why the report fails the gate; empty when it passes. */
export function gateFailures(r: Readiness, gate: Gate): string[] {
  const reasons: string[] = []
  if (underCoverage(r, gate))
    reasons.push(`coverage ${r.coverage.percent}% is under --min-coverage ${gate.minCoverage}`)
  const failing = r.findings.filter((f) => failsOn(f.severity, gate.failOn))
  if (failing.length)
    reasons.push(
      `${failing.length} finding${failing.length > 1 ? 's' : ''} at or above --fail-on ${gate.failOn}: ${failing.map((f) => f.id).join(', ')}`,
    )
  return reasons
}
