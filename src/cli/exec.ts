// `pix-sandbox exec -- COMMAND`: runs any language's test suite against a fresh sandbox
// (docs/READINESS.md#exec-any-suite-in-ci).
// The sandbox runs in this process; COMMAND gets its address and credentials in the environment,
// runs in a process group of its own (so that what it starts can be found and stopped when it
// ends, even when it is killed, or when exec is: cli/supervisor.ts), and receives SIGINT, SIGTERM,
// SIGHUP and SIGQUIT sent to exec. Then the calls still in flight are let finish, the readiness
// summary goes to stderr, the reports are written, and exec exits: COMMAND's code if it failed;
// otherwise 1 if the gate fails; otherwise 0. A COMMAND that cannot run exits 127 (not found) or
// 126 (not executable), as shells do.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { DEFAULT_CREDENTIALS } from '../client/types.js'
import type { Config } from '../config.js'
import { readinessRecord, type Readiness } from '../http/sandbox/records/readiness.js'
import { createLog } from '../log.js'
import { gateFailures, type Gate } from '../readiness/gate.js'
import { junitXml } from '../readiness/junit.js'
import { summaryText } from '../readiness/summary.js'
import { ScenarioError } from '../scenarios/loader.js'
import { startSandbox, StartupError, type RunningSandbox } from '../server.js'
import { colourEnv } from './colour.js'
import { earlyFailureText } from './early-failure.js'
import { supervise, type Ended } from './supervisor.js'
import { escapeControls } from '../terminal.js'

export interface ExecOptions {
  config: Config
  command: string[]
  report?: string
  junit?: string
  gate: Gate
}

/** How long what COMMAND left running gets after SIGTERM before SIGKILL. */
const REAP_GRACE_MS = 2000

/** The signals passed on to COMMAND's group (the third of any kills it). */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const

/** Runs COMMAND to its end, forwarding signals; `signalled`: exec was sent one meanwhile. */
async function run(
  command: string[],
  env: NodeJS.ProcessEnv,
): Promise<Ended & { signalled: boolean }> {
  const supervised = supervise(command, env, REAP_GRACE_MS)
  let signals = 0
  const forward = (signal: NodeJS.Signals) => supervised.signal(++signals > 2 ? 'SIGKILL' : signal)
  for (const signal of FORWARDED) process.on(signal, forward)
  try {
    return { ...(await supervised.ended), signalled: signals > 0 }
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward)
  }
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
}

/** Runs exec; resolves with the code to exit with. `stderr` is where the summary and messages go. */
export async function runExec(
  o: ExecOptions,
  stderr: (text: string) => void = (t) => void process.stderr.write(t),
): Promise<number> {
  let running: RunningSandbox
  try {
    // Its log, if asked for, goes to stderr: stdout is COMMAND's.
    running = await startSandbox(o.config, {
      log: createLog(o.config.logLevel, (line) => void process.stderr.write(line)),
    })
  } catch (err) {
    if (err instanceof StartupError || err instanceof ScenarioError) {
      stderr(
        `pix-sandbox exec: the sandbox did not start: ${escapeControls(err.message, { keepLines: true })}\n`,
      )
      return 1
    }
    throw err
  }
  const env = {
    ...process.env,
    ...colourEnv(process.env, process.stdout.isTTY === true),
    PIX_SANDBOX_URL: running.url,
    PIX_BASE_URL: `${running.url}/api/v1`,
    PIX_SANDBOX_ADMIN_TOKEN: running.adminToken,
    PIX_CLIENT_ID: DEFAULT_CREDENTIALS.main.clientId,
    PIX_CLIENT_SECRET: DEFAULT_CREDENTIALS.main.clientSecret,
  }
  let ended: Ended & { signalled: boolean }
  try {
    ended = await run(o.command, env)
    // Calls COMMAND left in flight (a payout a fault's delay holds, whose retry was answered
    // first) may change the verdict: they finish first, as long as the longest delay queued
    // takes (readiness/in-flight.ts; the report says when the wait ran out). Not after Ctrl-C.
    if (!ended.signalled) await running.sandbox.readiness?.flights.settled()
  } finally {
    // Stopped before the report is read: webhook sends under way are concluded first.
    await running.close()
  }
  // A COMMAND that could not start still gets its reports: a CI step uploading them whatever
  // happened (`if: always()`) finds them.
  if (ended.error) stderr(`pix-sandbox exec: ${escapeControls(ended.error)}\n`)
  const report: Readiness = readinessRecord(running.sandbox.readiness!.report())
  const reasons = ended.error
    ? [ended.error]
    : ended.code !== 0
      ? [`${o.command[0]!} exited ${ended.code}`]
      : gateFailures(report, o.gate)
  let code = ended.code !== 0 ? ended.code : reasons.length ? 1 : 0
  // The files first, the JSON report last (it records the code exec exits with), then the
  // summary: its Result line is the code exec really exits with.
  for (const [file, text] of [
    [o.junit, () => junitXml(report, o.gate)],
    [
      o.report,
      () =>
        JSON.stringify(
          {
            ...report,
            run: {
              command_exit_code: ended.code,
              exit_code: code,
              min_coverage: o.gate.minCoverage ?? null,
              fail_on: o.gate.failOn,
              failures: reasons,
            },
          },
          null,
          2,
        ) + '\n',
    ],
  ] as const) {
    if (file === undefined) continue
    try {
      write(file, text())
    } catch (err) {
      reasons.push(`cannot write ${file}: ${(err as Error).message}`)
      if (code === 0) code = 1
    }
  }
  // A COMMAND that failed before its first call: why, first (its checklist would bury it).
  if (!ended.error)
    stderr(earlyFailureText(o.command[0]!, ended, report) + summaryText(report, { code, reasons }))
  else if (reasons.length > 1)
    stderr(
      `pix-sandbox exec: ${reasons
        .slice(1)
        .map((r) => escapeControls(r))
        .join('; ')}\n`,
    )
  return code
}
