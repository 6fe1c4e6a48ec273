// The readiness summary a person reads in ten seconds: coverage, the behaviours not met with how
// to meet them, the findings with their first example and advice, and the verdict. Plain text
// for a terminal or a CI log. The report may come from elsewhere (`readiness --url` reads any
// server): every string of it is escaped before it is laid out (terminal.ts).
import type { Readiness } from '../http/sandbox/records/readiness.js'
import { escapeStrings } from '../terminal.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export function summaryText(report: Readiness, verdict?: { code: number; reasons: string[] }): string {
  const r = escapeStrings(report)
  const reasons = escapeStrings(verdict?.reasons ?? [])
  const lines: string[] = []
  const bySeverity = ['error', 'warning', 'info']
    .map((s) => [s, r.findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}${n > 1 && s !== 'info' ? 's' : ''}`)
  lines.push(
    `pix-sandbox readiness: ${r.coverage.met} of ${r.coverage.total} behaviours met (${r.coverage.percent}%), ` +
      (r.findings.length ? `${plural(r.findings.length, 'finding')} (${bySeverity.join(', ')})` : 'no findings'),
  )
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
      lines.push(`  ${f.severity.padEnd(7)} ${f.id.padEnd(width)}  x${f.count}  ${ex.method} ${ex.path}: ${ex.seen}`)
      lines.push(`  ${' '.repeat(8 + width)}  ${f.advice}`)
    }
  }
  if (verdict) {
    lines.push('', reasons.length ? `  Result: exit ${verdict.code}: ${reasons.join('; ')}` : `  Result: exit ${verdict.code}`)
  }
  return lines.join('\n') + '\n'
}
