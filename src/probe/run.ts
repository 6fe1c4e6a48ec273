// runProbe: the whole probe, from options to an exit code. It never throws: what goes wrong
// before the battery is an exit 2 with a message; what goes wrong with the target becomes rows.
import { writeFileSync } from 'node:fs'
import { VERSION } from '../server.js'
import { battery } from './battery.js'
import { chargeRows } from './charges.js'
import { basicToken, createSide, type Side } from './http.js'
import { targetProblem, type ProbeOptions } from './options.js'
import { escapeControls } from '../terminal.js'
import { createScrubber } from './redact.js'
import { startReference, type Reference } from './reference.js'
import { renderReport, summarize } from './report.js'
import { runCheck } from './rows.js'
import { calibratedScenario, howToLoad } from './scenario-writer.js'
import { parseScenarioText } from '../scenarios/loader.js'
import { impliedSettings } from './settings.js'
import type { ExitCode, Row } from './types.js'

export interface ProbeIO {
  out(text: string): void
  err(text: string): void
}

const stdio: ProbeIO = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }

export async function runProbe(options: ProbeOptions, io: ProbeIO = stdio): Promise<ExitCode> {
  const token =
    options.clientId && options.clientSecret
      ? basicToken(options.clientId, options.clientSecret).slice(6)
      : undefined
  const secrets = [options.clientSecret, token, token?.replace(/=+$/, '')]
  // Whatever is printed or written passes both: the secret cut out, control characters escaped.
  const scrubber = createScrubber(secrets)
  const scrub = (text: string) => escapeControls(scrubber(text), { keepLines: true })
  const fail = (message: string): ExitCode => {
    io.err(scrub(`pix-sandbox probe: ${message}\n`))
    return 2
  }
  const problem = targetProblem(options.target, options.insecure)
  if (problem) return fail(problem)
  if (!!options.clientId !== !!options.clientSecret)
    return fail(
      'give both --client-id and the secret (--client-secret or PIX_CLIENT_SECRET), or neither',
    )

  let reference: Reference
  try {
    reference = await startReference(options.scenario)
  } catch (err) {
    return fail(`cannot start the sandbox to compare with: ${(err as Error).message}`)
  }
  const base = options.target.replace(/\/+$/, '')
  const userAgent = `pix-sandbox-probe/${VERSION}`
  const sandbox = createSide({
    name: 'sandbox',
    base: `${reference.running.url}/api/v1`,
    clientId: reference.clientId,
    clientSecret: reference.clientSecret,
    rate: 0,
    timeoutMs: options.timeoutMs,
    userAgent,
  })
  const target = createSide({
    name: 'target',
    base,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    rate: options.rate,
    timeoutMs: options.timeoutMs,
    userAgent,
  })
  const started = new Date()
  let rows: Row[]
  try {
    rows = await collectRows(options, sandbox, target)
  } catch (err) {
    return fail((err as Error).message)
  } finally {
    await reference.running.close()
  }

  const implied = impliedSettings(rows, reference.scenario.settings, started.getTime())
  const header = [
    `pix-sandbox probe ${VERSION}: ${base} compared with the sandbox (scenario ${reference.scenarioLabel}), ${started.toISOString()}`,
    `${target.exchanges.length} requests to the target at most ${options.rate}/s; ${target.hasCredentials ? 'with credentials' : 'without credentials (give --client-id and PIX_CLIENT_SECRET for the rest)'}.`,
  ]
  io.out(scrub(renderReport(rows, implied, header)))

  const written: string[] = []
  try {
    if (options.json) {
      const report = {
        tool: `pix-sandbox probe ${VERSION}`,
        started_at: started.toISOString(),
        target: base,
        scenario: reference.scenarioLabel,
        options: { ...options, clientSecret: options.clientSecret ? '[redacted]' : undefined },
        summary: summarize(rows),
        settings_implied: implied.settings,
        learn_next: implied.learnNext.map((r) => r.id),
        rows: rows.map((r) => ({ ...r, covered_by_setting: implied.covered.has(r.id) })),
        exchanges: { target: target.exchanges, sandbox: sandbox.exchanges },
      }
      writeFileSync(options.json, scrub(JSON.stringify(report, null, 2)) + '\n')
      written.push(`report: ${options.json}`)
    }
    if (options.writeScenario) {
      const ctx = { target: base, basedOn: reference.scenarioLabel, date: started.toISOString() }
      const text = calibratedScenario(reference.scenarioText, implied, ctx, scrub)
      parseScenarioText(text, options.writeScenario) // a scenario the sandbox would refuse is a bug here
      writeFileSync(options.writeScenario, text)
      written.push(`scenario: ${options.writeScenario} (${howToLoad(options.writeScenario)})`)
    }
  } catch (err) {
    return fail(`cannot write: ${(err as Error).message}`)
  }
  if (written.length) io.out(scrub(`\nWrote ${written.join('; ')}\n`))
  return options.failOnDifference && rows.some((r) => r.verdict === 'differ') ? 1 : 0
}

async function collectRows(options: ProbeOptions, sandbox: Side, target: Side): Promise<Row[]> {
  const rows: Row[] = []
  for (const check of battery({ largeBody: options.largeBody, transfers: options.transfers })) {
    rows.push(...(await runCheck(check, sandbox, target)))
    // Nothing listens there at all: no row could say anything, so the probe could not run.
    const first = target.exchanges[0]
    if (
      first &&
      target.exchanges.length === 1 &&
      (first.failure?.kind === 'refused' || first.failure?.kind === 'unreachable')
    ) {
      throw new Error(`cannot reach ${target.base}: ${first.failure.message}`)
    }
  }
  if (options.createCharges > 0)
    rows.push(...(await chargeRows(sandbox, target, options.createCharges)))
  else
    rows.push(
      skipped('charges', 'needs --create-charges N (creates real charges of 1.00 on the target)'),
    )
  if (!options.transfers)
    rows.push(
      skipped(
        'transfers',
        'needs --transfers (sends a transfer above any balance; no money moves)',
      ),
    )
  return rows
}

const skipped = (group: 'charges' | 'transfers', reason: string): Row => ({
  id: `${group}.*`,
  group,
  topic: `${group}: not probed`,
  sent: '(nothing)',
  sandbox: { unobservable: 'not sent' },
  target: { unobservable: reason },
  verdict: 'not observable',
})
