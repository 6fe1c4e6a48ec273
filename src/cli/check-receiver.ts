// `pix-sandbox check-receiver URL --secret whsec_...`: the receiver check from this machine,
// without a sandbox (docs/READINESS.md#the-receiver-check): a table (or JSON) of how the receiver
// took each message; exit 0 when all passed, 1 otherwise.
import { VERSION } from '../server.js'
import { escapeControls, escapeStrings, terminalJson } from '../terminal.js'
import { checkReceiver, type ReceiverCheck } from '../webhooks/check.js'

export function checkText(url: string, result: ReceiverCheck): string {
  // A redirect's Location is the receiver's text; every field is escaped alike.
  const r = escapeStrings(result)
  const passed = r.checks.filter((c) => c.passed).length
  const lines = [
    `pix-sandbox check-receiver: ${escapeControls(url)}: ${passed} of ${r.checks.length} checks passed`,
    '',
  ]
  const width = Math.max(...r.checks.map((c) => c.id.length))
  lines.push(`  ${'check'.padEnd(width)}  expected  got   ms     result`)
  for (const c of r.checks) {
    const got = c.status === null ? '-' : String(c.status)
    lines.push(
      `  ${c.id.padEnd(width)}  ${c.expected.padEnd(8)}  ${got.padEnd(4)}  ${String(c.ms).padEnd(5)}  ${c.passed ? 'passed' : 'FAILED'}`,
    )
    if (c.error) lines.push(`  ${' '.repeat(width)}  ${c.error}`)
    if (c.advice) lines.push(`  ${' '.repeat(width)}  ${c.advice}`)
  }
  return lines.join('\n') + '\n'
}

export async function runCheckReceiver(
  o: { url: string; secret: string; json: boolean },
  out: (t: string) => void = (t) => void process.stdout.write(t),
): Promise<number> {
  const result = await checkReceiver({
    url: o.url,
    secret: o.secret,
    userAgent: `pix-sandbox/${VERSION}`,
  })
  out(o.json ? terminalJson(result) : checkText(o.url, result))
  return result.passed ? 0 : 1
}
