// `pix-sandbox readiness --url URL --admin-token TOKEN`: the readiness report of a sandbox already
// running (Docker, a CI service), once the calls it was still processing are answered, as a
// summary or JSON; with --min-coverage or --fail-on it gates
// like exec (exit 1). Anything at URL that is not a sandbox is said to be so, exit 1.
import { z } from '@hono/zod-openapi'
import { Readiness, ReadinessExample, ReadinessFinding } from '../http/sandbox/records/readiness.js'
import { gateFailures, type Gate } from '../readiness/gate.js'
import { summaryText } from '../readiness/summary.js'
import { escapeControls, terminalJson } from '../terminal.js'

export interface ReadinessOptions {
  url: string
  adminToken: string
  companyId?: string
  json: boolean
  gate: Gate
}

const TIMEOUT_MS = 10_000

/** The sandbox's root from what a user may pass: its root, its base_url (…/api/v1) or its control plane. */
export const sandboxRoot = (url: string) =>
  url.replace(/\/+$/, '').replace(/\/(?:api\/v1|_sandbox)$/, '')

class NotReady extends Error {}

/**
 * The report as this version reads it from any sandbox: an older one sends no receiver checks,
 * no `not_seen`, and examples without the company and the wall-clock time (the summary shows
 * what there is).
 */
const Accepted = Readiness.extend({
  findings: z.array(
    ReadinessFinding.extend({
      example: ReadinessExample.partial({ company_id: true, wall_time: true }),
    }),
  ),
  receiver_checks: Readiness.shape.receiver_checks.optional(),
  not_seen: Readiness.shape.not_seen.optional(),
  in_flight: Readiness.shape.in_flight.optional(),
})

async function fetchReport(o: ReadinessOptions): Promise<Readiness> {
  const root = sandboxRoot(o.url)
  const query = o.companyId === undefined ? '' : `?company_id=${encodeURIComponent(o.companyId)}`
  let res: Response
  try {
    res = await fetch(`${root}/_sandbox/readiness${query}`, {
      headers: { authorization: `Bearer ${o.adminToken}`, accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } }
    const why =
      e.name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (e.cause?.code ?? e.cause?.message ?? e.message)
    throw new NotReady(`cannot reach ${root}: ${why}`)
  }
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  const detail = (body as { detail?: unknown } | undefined)?.detail
  if (res.status === 401)
    throw new NotReady(
      `${root} refused the admin token (401): pass the token the sandbox was started with (--admin-token, or SANDBOX_ADMIN_TOKEN)`,
    )
  if (res.status === 404 && detail === 'Company not found')
    throw new NotReady(`${root} has no company ${o.companyId}`)
  const parsed = Accepted.safeParse(body)
  if (res.status === 200 && parsed.success) return parsed.data as Readiness
  const type = res.headers.get('content-type') ?? 'no content type'
  throw new NotReady(
    `${root} is not a pix-sandbox with readiness: GET /_sandbox/readiness answered ${res.status} (${type.split(';')[0]})`,
  )
}

/** How often the report is read again while calls are in flight, and how long calls no delay holds get. */
const POLL_MS = 250
const UNHELD_WAIT_MS = 1000

/**
 * The report once the calls in flight when it was first read have been answered, or once the
 * longest delay holding one has passed (then it says how many are left): a verdict never leaves
 * out a call still being processed (readiness/in-flight.ts).
 */
async function settledReport(o: ReadinessOptions): Promise<Readiness> {
  let report = await fetchReport(o)
  const flying = report.in_flight
  if (!flying?.calls) return report
  const until = Date.now() + Math.max(flying.wait_ms, UNHELD_WAIT_MS)
  while (report.in_flight?.calls && Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, until - Date.now()))))
    report = await fetchReport(o)
  }
  return report
}

/** Runs the command; resolves with the code to exit with. */
export async function runReadiness(
  o: ReadinessOptions,
  out: (text: string) => void = (t) => void process.stdout.write(t),
  err: (text: string) => void = (t) => void process.stderr.write(t),
): Promise<number> {
  let report: Readiness
  try {
    report = await settledReport(o)
  } catch (e) {
    if (!(e instanceof NotReady)) throw e
    err(`pix-sandbox readiness: ${escapeControls(e.message)}\n`)
    return 1
  }
  const reasons = gateFailures(report, o.gate)
  const code = reasons.length ? 1 : 0
  out(o.json ? terminalJson(report) : summaryText(report, { code, reasons }))
  return code
}
