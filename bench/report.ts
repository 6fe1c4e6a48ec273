// The bench's results: what was measured, reduced to ratios, judged against the targets, written
// to bench/results.json and printed as tables.
import { writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { LOAD_GENERATOR, type Figures } from './load.js'
import type { PerTest } from './per-test.js'
import { ROOT } from './processes.js'
import {
  BASE_DURABLE,
  BASE_GET,
  BASE_POST,
  CHARGE,
  COMPANY,
  onHistory,
  TRANSFER,
  withDashboard,
} from './routes.js'
import type { Samples } from './samples.js'
import type { History } from './seed.js'

export interface RunFacts {
  settings: { seconds: number; rounds: number; connections: number; history: History }
  startsMs: number[]
  peakRssBytes: number
  /** After start-up, before any load. */
  idleRssBytes: number
  /** The server on the history store. */
  history: { peakRssBytes: number; idleRssBytes: number }
  seedMs: number
  perTest: PerTest
  dashboard: { messages: number; refreshes: number }
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10

export function summarize(s: Samples, run: RunFacts) {
  const starts = [...run.startsMs].sort((a, b) => a - b)
  return {
    machine: {
      cpu: cpus()[0]?.model,
      cores: cpus().length,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
    },
    settings: { ...run.settings, load_generator: LOAD_GENERATOR },
    baseline: {
      get: s.mean(BASE_GET.name),
      post: s.mean(BASE_POST.name),
      durable_post: s.mean(BASE_DURABLE.name),
    },
    sandbox: {
      charge: s.mean(CHARGE.name),
      transfer: s.mean(TRANSFER.name),
      company: s.mean(COMPANY.name),
    },
    // The targets: each contract call against the bare route of its kind (every answer of the
    // sandbox durable, readiness recording on), and on the history store against a fresh one.
    ratios: {
      charge_vs_baseline_post: s.ratio(CHARGE.name, BASE_POST.name),
      transfer_vs_baseline_post: s.ratio(TRANSFER.name, BASE_POST.name),
      company_vs_baseline_get: s.ratio(COMPANY.name, BASE_GET.name),
      charge_history_vs_fresh: s.ratio(onHistory(CHARGE), CHARGE.name),
      transfer_history_vs_fresh: s.ratio(onHistory(TRANSFER), TRANSFER.name),
      company_history_vs_fresh: s.ratio(onHistory(COMPANY), COMPANY.name),
    },
    // How the writes compare with the bare stack's own acknowledged write (not targets).
    context: {
      durable_post_vs_baseline_post: s.ratio(BASE_DURABLE.name, BASE_POST.name),
      charge_vs_durable_post: s.ratio(CHARGE.name, BASE_DURABLE.name),
      transfer_vs_durable_post: s.ratio(TRANSFER.name, BASE_DURABLE.name),
    },
    // Not targets: each figure with a dashboard open over the same figure without one (issue 10:
    // within the machine's noise), and that noise: the spread of the closed figure's ratio to
    // its baseline from round to round.
    dashboard: {
      charge_open_vs_closed: s.ratio(withDashboard(CHARGE), CHARGE.name),
      transfer_open_vs_closed: s.ratio(withDashboard(TRANSFER), TRANSFER.name),
      company_open_vs_closed: s.ratio(withDashboard(COMPANY), COMPANY.name),
      noise: {
        charge: s.spread(CHARGE.name, BASE_POST.name),
        transfer: s.spread(TRANSFER.name, BASE_POST.name),
        company: s.spread(COMPANY.name, BASE_GET.name),
      },
      ...run.dashboard,
    },
    // The slowest of the three routes, each the median of its rounds' p99, as ratios are medians
    // of rounds: a mean let one stalled round (the baseline's own p99 reached 103 ms in one run)
    // decide the figure. Each round's p99 is kept below.
    p99_ms: Math.max(...[CHARGE, TRANSFER, COMPANY].map((t) => s.median(t.name, (f) => f.p99))),
    p99_rounds_ms: Object.fromEntries(
      [CHARGE, TRANSFER, COMPANY].map((t) => [t.name, s.all(t.name).map((f) => f.p99)]),
    ),
    start_to_first_200_ms: Math.round(starts[Math.floor(starts.length / 2)]! * 10) / 10,
    peak_rss_mb: mb(run.peakRssBytes),
    idle_rss_mb: mb(run.idleRssBytes),
    history: {
      sandbox: Object.fromEntries(
        [CHARGE, TRANSFER, COMPANY].map((t) => [t.name, s.mean(onHistory(t))]),
      ) as Record<string, Figures>,
      peak_rss_mb: mb(run.history.peakRssBytes),
      idle_rss_mb: mb(run.history.idleRssBytes),
    },
    rounds: s.rounds(),
    seed_seconds: Math.round(run.seedMs / 100) / 10,
    per_test: run.perTest,
  }
}

export type Results = ReturnType<typeof summarize>
type Op = '>=' | '<=' | '<'
type Judged = { figure: string; value: number; op: Op; target: number; met: boolean }

export function judge(r: Results): Judged[] {
  const rows: [string, number, Op, number][] = [
    // Against the bare routes, every answer of the sandbox durable all the same (issue 34).
    ['create charge / bare POST', r.ratios.charge_vs_baseline_post, '>=', 0.6],
    ['create transfer / bare POST', r.ratios.transfer_vs_baseline_post, '>=', 0.5],
    ['company / bare GET', r.ratios.company_vs_baseline_get, '>=', 0.75],
    ['p99 at 32 connections (ms)', r.p99_ms, '<=', 10],
    ['start to first 200 (ms)', r.start_to_first_200_ms, '<=', 500],
    ['peak RSS under load (MB)', r.peak_rss_mb, '<=', 150],
    ['idle RSS, after start (MB)', r.idle_rss_mb, '<', 100],
    ['charge, history / fresh store', r.ratios.charge_history_vs_fresh, '>=', 0.8],
    ['transfer, history / fresh store', r.ratios.transfer_history_vs_fresh, '>=', 0.8],
    ['company, history / fresh store', r.ratios.company_history_vs_fresh, '>=', 0.8],
    ['startSandbox() to ready, first in a process (ms)', r.per_test.first_start_ms, '<=', 50],
    ['close() (ms)', r.per_test.close_ms, '<=', 20],
    ['POST /_sandbox/reset, default scenario (ms)', r.per_test.reset_ms, '<=', 3],
    ['tenant creation / bare POST, sequential', r.per_test.tenant_vs_baseline_post, '<=', 1.3],
    ['create charge p50 / bare POST, sequential', r.per_test.charge_vs_baseline_post, '<=', 1.1],
  ]
  return rows.map(([figure, value, op, target]) => ({
    figure,
    value,
    op,
    target,
    met: op === '>=' ? value >= target : op === '<' ? value < target : value <= target,
  }))
}

/** Writes bench/results.json and prints the tables. */
export function report(r: Results, judged: Judged[]): void {
  const targets = judged.map(({ figure, value, op, target, met }) => ({
    figure,
    value,
    target: `${op} ${target}`,
    met,
  }))
  writeFileSync(join(ROOT, 'bench/results.json'), JSON.stringify({ ...r, targets }, null, 2) + '\n')
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`
  const { per_test: t, dashboard: d, settings, history: h } = r
  const measured = {
    [BASE_GET.name]: r.baseline.get,
    [BASE_POST.name]: r.baseline.post,
    [BASE_DURABLE.name]: r.baseline.durable_post,
    [CHARGE.name]: r.sandbox.charge,
    [TRANSFER.name]: r.sandbox.transfer,
    [COMPANY.name]: r.sandbox.company,
    ...Object.fromEntries(
      [CHARGE, TRANSFER, COMPANY].map((x) => [onHistory(x), h.sandbox[x.name]!]),
    ),
  }
  const lines = [
    `machine: ${r.machine.cpu} x${r.machine.cores}, node ${r.machine.node}; ${settings.seconds}s x ${settings.rounds} rounds, ${settings.connections} connections (${settings.load_generator})`,
    `history store: ${settings.history.companies} companies, ${settings.history.charges} charges, ${settings.history.queued} queued outcomes and faults of one company; its server: idle ${h.idle_rss_mb} MB, peak ${h.peak_rss_mb} MB`,
    '',
    row(['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx']),
    row(['---', '---', '---', '---', '---']),
    ...Object.entries(measured).map(([name, f]) =>
      row([name, Math.round(f.rps), f.p50, f.p99, f.non2xx]),
    ),
    '',
    row(['figure', 'measured', 'target', 'met']),
    row(['---', '---', '---', '---']),
    ...judged.map((j) => row([j.figure, j.value, `${j.op} ${j.target}`, j.met ? 'yes' : 'NO'])),
    '',
    `per test (medians of sequential calls, one connection): startSandbox() ${t.start_ms} ms once warm; fetch: tenant ${t.tenant_ms} ms against ${t.tenant_baseline_post_ms} ms for the bare POST in turn with it, charge ${t.charge_p50_ms} ms against ${t.charge_baseline_post_ms} ms`,
    `  their first calls, before the JIT settles: charge ${t.charge_first_calls_vs_baseline_post}x (a fresh server), tenant ${t.tenant_first_calls_vs_baseline_post}x`,
    `  with node:http: tenant ${t.node_http.tenant_ms} ms (${t.node_http.tenant_vs_baseline_post}x), charge ${t.node_http.charge_p50_ms} ms (${t.node_http.charge_vs_baseline_post}x), bare POST ${t.node_http.tenant_baseline_post_ms} / ${t.node_http.charge_baseline_post_ms} ms, reset ${t.node_http.reset_ms} ms`,
    '',
    'context (not targets):',
    ...Object.entries(r.context).map(([k, v]) => `  ${k.replaceAll('_', ' ')}: ${v}`),
    `a dashboard open (${d.messages} live messages, ${d.refreshes} page re-reads), over none:` +
      ` charge ${d.charge_open_vs_closed}, transfer ${d.transfer_open_vs_closed}, company ${d.company_open_vs_closed};` +
      ` round-to-round spread without: charge ${d.noise.charge}, transfer ${d.noise.transfer}, company ${d.noise.company}`,
  ]
  process.stdout.write(lines.join('\n') + '\n')
}
