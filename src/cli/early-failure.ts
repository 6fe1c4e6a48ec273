// What exec says first when COMMAND failed before the sandbox saw any call of it: a build that
// did not compile, a missing dependency, a wrong path. Its readiness checklist (every behaviour
// not met) would otherwise stand between the cause and the reader, so the failure and COMMAND's
// last lines come before it (docs/READINESS.md#exec-any-suite-in-ci).
import type { Readiness } from '../http/sandbox/records/readiness.js'
import { escapeControls } from '../terminal.js'

/** Whether the report holds nothing COMMAND did: no behaviour met, no finding. */
const sawNothing = (report: Readiness): boolean =>
  report.behaviours.every((b) => b.count === 0) && report.findings.length === 0

/**
 * The lines to print before the summary, or '' when there is nothing to say first: COMMAND
 * passed, could not run at all (exec says that instead), or made calls.
 */
export function earlyFailureText(
  command: string,
  ended: { code: number; error?: string; lastLines: string[] },
  report: Readiness,
): string {
  if (ended.code === 0 || ended.error !== undefined || !sawNothing(report)) return ''
  const name = escapeControls(command)
  const head = `pix-sandbox exec: ${name} exited ${ended.code} before its first call to the sandbox`
  if (!ended.lastLines.length) return `${head}, printing nothing\n\n`
  return `${head}; its last lines:\n${ended.lastLines.map((l) => `  ${l}\n`).join('')}\n`
}
