// The terminal report: a table of every row, then the differences in full, what was sent, what
// changed on the target, and the settings that would close the gap.
import { escapeControls } from '../terminal.js'
import type { Implied } from './settings.js'
import type { Answer, Row } from './types.js'

export interface Summary {
  agree: number
  differ: number
  notObservable: number
}

export const summarize = (rows: Row[]): Summary => ({
  agree: rows.filter((r) => r.verdict === 'agree').length,
  differ: rows.filter((r) => r.verdict === 'differ').length,
  notObservable: rows.filter((r) => r.verdict === 'not observable').length,
})

/** One side's answer on one line: the target's text is shown escaped, line feeds included. */
export function answerText(a: Answer): string {
  if ('unobservable' in a) return escapeControls(`(${a.unobservable})`)
  return escapeControls(
    Object.entries(a.observed)
      .filter(([k, v]) => !(k === 'content_type' && v === 'application/json'))
      .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' · '),
  )
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n))
const MARK = { agree: 'agree ', differ: 'DIFFER', 'not observable': 'n/o   ' } as const

export function renderReport(rows: Row[], implied: Implied, header: string[]): string {
  const idWidth = Math.max(...rows.map((r) => r.id.length), 10)
  const out: string[] = [...header, '']
  out.push(`${'check'.padEnd(idWidth)}  verdict  ${'sandbox'.padEnd(56)}  target`)
  for (const r of rows) {
    const target = r.verdict === 'agree' ? '(same)' : answerText(r.target)
    out.push(
      `${r.id.padEnd(idWidth)}  ${MARK[r.verdict]}   ${cut(answerText(r.sandbox), 56)}  ${target.length > 70 ? cut(target, 70) : target}`,
    )
  }
  const s = summarize(rows)
  out.push(
    '',
    `${rows.length} checks: ${s.agree} agree, ${s.differ} differ, ${s.notObservable} not observable.`,
  )

  const differing = rows.filter((r) => r.verdict === 'differ')
  if (differing.length) {
    out.push('', 'Differences:')
    for (const r of differing) {
      const fix = implied.covered.has(r.id)
        ? `setting ${r.setting ?? 'charge_ttl_seconds/timezone'} closes it`
        : 'no setting can express it'
      out.push(
        `- ${r.id}: ${r.topic} (${fix})`,
        `    sandbox: ${answerText(r.sandbox)}`,
        `    target:  ${answerText(r.target)}`,
      )
    }
  }
  const changed = rows.filter((r) => r.changes === 'yes' && r.verdict !== 'not observable')
  out.push(
    '',
    changed.length
      ? 'Requests that changed something on the target:'
      : 'Nothing was created or changed on the target.',
  )
  for (const r of changed) out.push(`- ${r.id}${r.note ? `: ${r.note}` : ''}`)
  const notes = [
    ...new Set(rows.filter((r) => r.changes === 'guarded' && r.note).map((r) => r.note!)),
  ]
  for (const n of notes) out.push(`  (guarded requests were ${n})`)

  const settings = Object.entries(implied.settings)
  out.push(
    '',
    settings.length
      ? 'Settings that make the sandbox answer like the target (--write-scenario writes them):'
      : 'No setting needs a change.',
  )
  for (const [k, v] of settings) out.push(`  ${k}: ${v}`)
  if (implied.learnNext.length) {
    out.push('', 'Differences no setting can express (what the sandbox should learn next):')
    for (const r of implied.learnNext) out.push(`- ${r.id}: ${r.topic}`)
  }
  out.push(
    '',
    'What was sent (PIX_BASE_URL is the target base_url; credentials as PIX_CLIENT_ID / PIX_CLIENT_SECRET):',
  )
  rows.forEach((r, i) =>
    out.push(
      `  ${r.id.padEnd(idWidth)}  ${i > 0 && rows[i - 1]!.sent === r.sent ? '(the same request)' : r.sent}`,
    ),
  )
  return out.join('\n') + '\n'
}
