// npm run bench: the production server against a bare Hono baseline, measured in the same run
// over loopback by the same load generator, alternating between them; a second server on a store
// with history (10,000 companies, 150,000 charges, another company's full queues: bench/seed.ts)
// is measured in the same rounds. Figures are reported as ratios, each the median over rounds of
// the ratio within a round: that is what survives a noisy machine (bench/samples.ts). Writes
// bench/results.json (bench/report.ts).
import { execSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDashboard } from './dashboard.js'
import { drive, type Figures, type Target } from './load.js'
import { measurePerTest } from './per-test.js'
import { memoryOf, ROOT, SERVER_ARGS, startProcess, type Proc } from './processes.js'
import { judge, report, summarize } from './report.js'
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
import { Samples } from './samples.js'
import { HISTORY, seedHistory } from './seed.js'

// Five rounds of four seconds rather than three of five: on this noisy machine a median of three
// rounds still moved by a tenth from run to run.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CONNECTIONS = 32
const WARMUP = 2
// BENCH_HISTORY scales the history store down (a fraction, for a quick run).
const SCALE = Number(process.env.BENCH_HISTORY ?? 1)
const history = {
  companies: Math.max(1, Math.round(HISTORY.companies * SCALE)),
  charges: Math.round(HISTORY.charges * SCALE),
  queued: Math.round(HISTORY.queued * SCALE),
}
// After start-up, before any load: what an idle server holds (V8 has settled from loading).
const IDLE_MS = 2000

// Before each measurement: the servers' checkpoint workers copy the last load's WAL within a
// second, and that copy should not be charged to whatever is measured next.
const SETTLE_MS = 1500

async function load(
  url: string,
  t: Target,
  seconds = SECONDS,
  connections = CONNECTIONS,
): Promise<Figures> {
  await new Promise((r) => setTimeout(r, SETTLE_MS))
  return drive(url, t, seconds, connections)
}

/** Samples the RSS of a process while `work` runs; returns the peak seen (and VmHWM). */
async function peakRss<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; peak: number }> {
  let peak = 0
  const timer = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 50)
  try {
    const result = await work()
    return { result, peak: Math.max(peak, memoryOf(pid).peak) }
  } finally {
    clearInterval(timer)
  }
}

const ADMIN_TOKEN = 'bench-admin-token-0123456789'
const startSandbox = (database: string) =>
  startProcess(
    SERVER_ARGS,
    { DATABASE: database, LOG_LEVEL: 'warn', SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN },
    '/_sandbox/health',
  )

async function main(): Promise<void> {
  process.stdout.write('building...\n')
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
  const dir = mkdtempSync(join(tmpdir(), 'pix-bench-'))
  const database = join(dir, 'bench.db')
  const procs: Proc[] = []
  try {
    // Start-up: a fresh store each time (the first start also loads the scenario).
    const startsMs: number[] = []
    for (let i = 0; i < 5; i++) {
      const p = await startSandbox(join(dir, `start-${i}.db`))
      startsMs.push(p.startMs)
      await p.stop()
    }

    // The history store: started once so it holds the scenario, then filled with history.
    const historyDatabase = join(dir, 'history.db')
    await (await startSandbox(historyDatabase)).stop()
    process.stdout.write(
      `seeding ${history.companies} companies, ${history.charges} charges and ${history.queued} queued outcomes and faults...\n`,
    )
    const seedMs = seedHistory(historyDatabase, history)

    const baseline = await startProcess(
      ['bench/baseline.mjs'],
      { BASELINE_DB: join(dir, 'baseline.db') },
      '/get',
    )
    procs.push(baseline)
    const sandbox = await startSandbox(database)
    procs.push(sandbox)
    const historySandbox = await startSandbox(historyDatabase)
    procs.push(historySandbox)
    await new Promise((r) => setTimeout(r, IDLE_MS))
    const idleRssBytes = memoryOf(sandbox.child.pid!).rss
    const historyIdleRssBytes = memoryOf(historySandbox.child.pid!).rss

    // Warm all three up (JIT, caches) before anything is measured.
    for (const t of [BASE_GET, BASE_POST, BASE_DURABLE]) await load(baseline.url, t, WARMUP)
    for (const t of [CHARGE, TRANSFER, COMPANY]) await load(sandbox.url, t, WARMUP)
    for (const t of [CHARGE, TRANSFER, COMPANY]) await load(historySandbox.url, t, WARMUP)

    // Every round measures everything, each figure right next to what it is divided by.
    const samples = new Samples()
    // `paired`: measured twice in a row, once with a QA dashboard open on the Requests page
    // (bench/dashboard.ts), in alternating order from round to round so that drift cancels.
    const steps: [Proc, Target, string, paired?: boolean][] = [
      [baseline, BASE_GET, BASE_GET.name],
      [sandbox, COMPANY, COMPANY.name, true],
      [historySandbox, COMPANY, onHistory(COMPANY)],
      [baseline, BASE_POST, BASE_POST.name],
      [sandbox, CHARGE, CHARGE.name, true],
      [historySandbox, CHARGE, onHistory(CHARGE)],
      [sandbox, TRANSFER, TRANSFER.name, true],
      [historySandbox, TRANSFER, onHistory(TRANSFER)],
      [baseline, BASE_DURABLE, BASE_DURABLE.name],
    ]
    let peakRssBytes = 0
    let historyPeakRssBytes = 0
    const dashboardCounts = { messages: 0, refreshes: 0 }
    const measureSandbox = async (t: Target, dashboardOpen: boolean) => {
      const dashboard = dashboardOpen ? await openDashboard(sandbox.url, ADMIN_TOKEN) : undefined
      try {
        const { result, peak } = await peakRss(sandbox.child.pid!, () => load(sandbox.url, t))
        peakRssBytes = Math.max(peakRssBytes, peak)
        samples.add(dashboardOpen ? withDashboard(t) : t.name, result)
      } finally {
        await dashboard?.close()
        const counts = dashboard?.counts()
        dashboardCounts.messages += counts?.messages ?? 0
        dashboardCounts.refreshes += counts?.refreshes ?? 0
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [proc, t, name, paired] of steps) {
        if (proc === historySandbox) {
          const { result, peak } = await peakRss(historySandbox.child.pid!, () => load(proc.url, t))
          historyPeakRssBytes = Math.max(historyPeakRssBytes, peak)
          samples.add(name, result)
        } else if (proc !== sandbox) samples.add(name, await load(proc.url, t))
        else if (!paired) await measureSandbox(t, false)
        else
          for (const open of round % 2 ? [true, false] : [false, true])
            await measureSandbox(t, open)
      }
      process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`)
    }
    // What a test suite pays per file and per test, on an in-memory store (bench/per-test.ts).
    const memory = await startSandbox(':memory:')
    procs.push(memory)
    const perTest = await measurePerTest(memory.url, ADMIN_TOKEN, baseline.url)
    process.stdout.write('per-test figures done\n')

    const results = summarize(samples, {
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, history },
      startsMs,
      peakRssBytes,
      idleRssBytes,
      history: { peakRssBytes: historyPeakRssBytes, idleRssBytes: historyIdleRssBytes },
      seedMs,
      perTest,
      dashboard: dashboardCounts,
    })
    report(results, judge(results))
  } finally {
    for (const p of procs) await p.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`)
  process.exit(1)
})
