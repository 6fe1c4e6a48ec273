// The receiver check's answer as the dashboard shows it after a button: a line per check.
import type { Flash } from './session.js'

interface Check {
  id: string
  expected: string
  status: number | null
  ms: number
  passed: boolean
  advice: string | null
  error: string | null
}

export function checkFlash(body: { passed: boolean; checks: Check[] }): Flash {
  const passed = body.checks.filter((c) => c.passed).length
  return {
    kind: body.passed ? 'ok' : 'error',
    text: `Receiver check: ${passed} of ${body.checks.length} checks passed`,
    lines: body.checks.map(
      (c) =>
        `${c.passed ? 'passed' : 'FAILED'} ${c.id}: expected ${c.expected}, got ${c.status ?? 'no answer'} in ${c.ms} ms` +
        (c.error ? ` (${c.error})` : '') +
        (c.advice ? `. ${c.advice}` : ''),
    ),
  }
}
