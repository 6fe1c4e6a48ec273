// The readiness summary a person reads in ten seconds: coverage, the calls it could not wait for,
// the behaviours not met with how to meet them, the findings with their first example (the company, and the wall-clock time to
// find it in a test log) and advice, the receiver checks that failed, what the sandbox cannot
// see, and the verdict. Plain text for a terminal or a CI log. The report may come from elsewhere
// (`readiness --url` reads any server, perhaps an older one): every string of it is escaped
// before it is laid out (terminal.ts), and a list it lacks is taken as empty.
import type { Readiness } from '../http/sandbox/records/readiness.js'
import { escapeStrings } from '../terminal.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** What a report made while calls were still being processed says of them (the summary, the JUnit file). */
export const inFlightText = (calls: number) =>
  `Not waited for: ${plural(calls, 'call')} still being processed when this report was made (the wait, as long as the longest delay queued, ran out): what ${calls === 1 ? 'it shows' : 'they show'} is not in this report`

export function summaryText(
  report: Readiness,
  verdict?: { code: number; reasons: string[] },
): string {
  const r = escapeStrings(report)
  const reasons = escapeStrings(verdict?.reasons ?? [])
  const lines: string[] = []
  const bySeverity = ['error', 'warning', 'info']
    .map((s) => [s, r.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n > 1 && s !== 'info' ? 's' : ''}`)
  lines.push(
    `pix-sandbox readiness: ${r.coverage.met} of ${r.coverage.total} behaviours met (${r.coverage.percent}%), ` +
      (r.findings.length
        ? `${plural(r.findings.length, 'finding')} (${bySeverity.join(', ')})`
        : 'no findings'),
  )
  const flying = r.in_flight?.calls ?? 0
  if (flying) lines.push(`  ${inFlightText(flying)}`)
  const missing = r.behaviours.filter((b) => !b.met)
  if (missing.length) {
    const width = Math.max(...missing.map((b) => b.id.length))
    lines.push('', `  ${`Not met (${missing.length})`.padEnd(width)}  how to meet it`)
    for (const b of missing) lines.push(`  ${b.id.padEnd(width)}  ${b.how}`)
  }
  if (r.findings.length) {
    const width = Math.max(...r.findings.map((f) => f.id.length))
    lines.push('', '  Findings')
    for (const f of r.findings) {
      const ex = f.example
      const where = [ex.company_id, ex.wall_time && `${ex.wall_time} wall clock`]
        .filter(Boolean)
        .join(', ')
      lines.push(
        `  ${f.severity.padEnd(7)} ${f.id.padEnd(width)}  x${f.count}  ${ex.method} ${ex.path}${where ? ` (${where})` : ''}: ${ex.seen}`,
      )
      lines.push(`  ${' '.repeat(8 + width)}  ${f.advice}`)
    }
  }
  const failedChecks = (r.receiver_checks ?? []).filter((c) => !c.passed)
  if (failedChecks.length) {
    lines.push('', '  Receiver checks that failed')
    for (const c of failedChecks) {
      lines.push(`  ${c.url} (${c.wall_time} wall clock)`)
      const width = Math.max(...c.failed.map((f) => f.id.length))
      for (const f of c.failed) {
        const got = f.error ?? `answered ${f.status}`
        lines.push(
          `    ${f.id.padEnd(width)}  expected ${f.expected}, ${got}${f.advice ? `: ${f.advice}` : ''}`,
        )
      }
    }
  }
  const notSeen = r.not_seen ?? []
  if (notSeen.length) {
    lines.push('', '  Not seen by the sandbox, whatever this report says')
    for (const n of notSeen) lines.push(`  - ${n.what}`)
  }
  if (verdict) {
    lines.push(
      '',
      reasons.length
        ? `  Result: exit ${verdict.code}: ${reasons.join('; ')}`
        : `  Result: exit ${verdict.code}`,
    )
  }
  return lines.join('\n') + '\n'
}
