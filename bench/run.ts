// npm run bench: the production server against a bare Hono baseline, measured in the same run
// over loopback by the same load generator, alternating between them; a second server on a store
// of a million charges and a million transfers is measured in the same rounds. Figures are
// reported as ratios, each the median over rounds of the ratio within a round: that is what
// survives a noisy machine. Writes bench/results.json.
import { execSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDashboard } from './dashboard.js'
import { drive, LOAD_GENERATOR, type Figures, type Target } from './load.js'
import { measurePerTest } from './per-test.js'
import { memoryOf, ROOT, SERVER_ARGS, startProcess, type Proc } from './processes.js'
import { seedHistory } from './seed.js'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const CONNECTIONS = 32
const WARMUP = 2
const HISTORY = Number(process.env.BENCH_HISTORY ?? 1_000_000)
const AUTH = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
const JSON_HEADERS = { 'content-type': 'application/json', authorization: AUTH }

const BASE_GET: Target = { name: 'baseline GET', path: '/get', method: 'GET' }
const BASE_POST: Target = { name: 'baseline POST', path: '/post', method: 'POST', body: '{"amount":1000}', headers: { 'content-type': 'application/json' } }
// The bare POST plus one durable row: the stack's own limit for an acknowledged write (see baseline.mjs).
const BASE_DURABLE: Target = { name: 'baseline durable POST', path: '/durable', method: 'POST', body: '{"amount":1000}', headers: { 'content-type': 'application/json' } }
const CHARGE: Target = { name: 'create charge', path: '/api/v1/hub/transactions/in', method: 'POST', body: '{"amount":1000,"description":"bench"}', headers: JSON_HEADERS }
const TRANSFER: Target = { name: 'create transfer', path: '/api/v1/hub/transactions/out', method: 'POST', body: '{"amount":1,"pix_key":"maria@example.com","pix_type":"EMAIL"}', headers: JSON_HEADERS }
const COMPANY: Target = { name: 'company', path: '/api/v1/user/company', method: 'GET', headers: { authorization: AUTH } }

// Before each measurement: the servers' checkpoint workers copy the last load's WAL within a
// second, and that copy should not be charged to whatever is measured next.
const SETTLE_MS = 1500

async function load(url: string, t: Target, seconds = SECONDS, connections = CONNECTIONS): Promise<Figures> {
  await new Promise((r) => setTimeout(r, SETTLE_MS))
  return drive(url, t, seconds, connections)
}

const mean = (xs: Figures[]): Figures => ({
  rps: xs.reduce((a, x) => a + x.rps, 0) / xs.length,
  p50: Math.round((xs.reduce((a, x) => a + x.p50, 0) / xs.length) * 10) / 10,
  p99: Math.round((xs.reduce((a, x) => a + x.p99, 0) / xs.length) * 10) / 10,
  non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
})

/** Samples the RSS of a process while `work` runs; returns the peak seen (and VmHWM). */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
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
  startProcess(SERVER_ARGS, { DATABASE: database, LOG_LEVEL: 'warn', SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN }, '/_sandbox/health')

async function main(): Promise<void> {
  process.stdout.write('building...\n')
  execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
  const dir = mkdtempSync(join(tmpdir(), 'pix-bench-'))
  const database = join(dir, 'bench.db')
  const procs: Proc[] = []
  try {
    // Start-up: a fresh store each time (the first start also loads the scenario).
    const starts: number[] = []
    for (let i = 0; i < 5; i++) {
      const p = await startSandbox(join(dir, `start-${i}.db`))
      starts.push(p.startMs)
      await p.stop()
    }
    starts.sort((a, b) => a - b)

    // The busy store: started once so it holds the scenario, then filled with history.
    const busyDatabase = join(dir, 'busy.db')
    await (await startSandbox(busyDatabase)).stop()
    process.stdout.write(`seeding ${HISTORY} charges and ${HISTORY} transfers...\n`)
    const seedMs = seedHistory(busyDatabase, HISTORY, HISTORY)

    const baseline = await startProcess(['bench/baseline.mjs'], { BASELINE_DB: join(dir, 'baseline.db') }, '/get')
    procs.push(baseline)
    const sandbox = await startSandbox(database)
    procs.push(sandbox)
    const busySandbox = await startSandbox(busyDatabase)
    procs.push(busySandbox)

    // Warm all three up (JIT, caches) before anything is measured.
    for (const t of [BASE_GET, BASE_POST, BASE_DURABLE]) await load(baseline.url, t, WARMUP)
    for (const t of [CHARGE, TRANSFER, COMPANY]) await load(sandbox.url, t, WARMUP)
    for (const t of [CHARGE, TRANSFER, COMPANY]) await load(busySandbox.url, t, WARMUP)

    // Every round measures everything, each figure right next to what it is divided by, so each
    // ratio is taken within a round between measurements seconds apart: the machine's speed
    // drifts more than that over a whole run.
    const samples = new Map<string, Figures[]>()
    const add = (name: string, f: Figures) => samples.set(name, [...(samples.get(name) ?? []), f])
    // `paired`: measured twice in a row, once with a QA dashboard open on the Requests page
    // (bench/dashboard.ts), in alternating order from round to round so that drift cancels.
    const steps: [Proc, Target, string, paired?: boolean][] = [
      [baseline, BASE_GET, BASE_GET.name], [sandbox, COMPANY, COMPANY.name, true], [busySandbox, COMPANY, `busy ${COMPANY.name}`],
      [baseline, BASE_POST, BASE_POST.name], [sandbox, CHARGE, CHARGE.name, true], [busySandbox, CHARGE, `busy ${CHARGE.name}`],
      [sandbox, TRANSFER, TRANSFER.name, true], [busySandbox, TRANSFER, `busy ${TRANSFER.name}`], [baseline, BASE_DURABLE, BASE_DURABLE.name],
    ]
    let peak = 0
    const dashboardCounts = { messages: 0, refreshes: 0 }
    const measureSandbox = async (t: Target, name: string, dashboardOpen: boolean) => {
      const dashboard = dashboardOpen ? await openDashboard(sandbox.url, ADMIN_TOKEN) : undefined
      try {
        const { result, peak: p } = await peakRss(sandbox.child.pid!, () => load(sandbox.url, t))
        peak = Math.max(peak, p)
        add(dashboardOpen ? `${name}, dashboard open` : name, result)
      } finally {
        await dashboard?.close()
        const counts = dashboard?.counts()
        dashboardCounts.messages += counts?.messages ?? 0
        dashboardCounts.refreshes += counts?.refreshes ?? 0
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [proc, t, name, paired] of steps) {
        if (proc !== sandbox) add(name, await load(proc.url, t))
        else if (!paired) await measureSandbox(t, name, false)
        else for (const open of round % 2 ? [true, false] : [false, true]) await measureSandbox(t, name, open)
      }
      process.stdout.write(`round ${round + 1}/${ROUNDS} done\n`)
    }
    // What a test suite pays per file and per test, on an in-memory store (bench/per-test.ts).
    const memory = await startSandbox(':memory:')
    procs.push(memory)
    const perTest = await measurePerTest(memory.url, ADMIN_TOKEN, baseline.url)
    process.stdout.write('per-test figures done\n')

    const fig = (name: string) => mean(samples.get(name)!)
    const busy = new Map([CHARGE, TRANSFER, COMPANY].map((t) => [t.name, fig(`busy ${t.name}`)]))
    // The median over rounds of the ratio within each round.
    const ratio = (a: string, b: string) => {
      const xs = samples.get(a)!.map((f, i) => f.rps / samples.get(b)![i]!.rps).sort((x, y) => x - y)
      const mid = xs.length / 2
      const median = xs.length % 2 ? xs[Math.floor(mid)]! : (xs[mid - 1]! + xs[mid]!) / 2
      return Math.round(median * 1000) / 1000
    }

    // How far apart the rounds' ratios lie: (max - min) / median.
    const spread = (a: string, b: string) => {
      const xs = samples.get(a)!.map((f, i) => f.rps / samples.get(b)![i]!.rps).sort((x, y) => x - y)
      return Math.round(((xs.at(-1)! - xs[0]!) / xs[Math.floor(xs.length / 2)]!) * 1000) / 1000
    }

    const results = {
      machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, platform: `${process.platform} ${process.arch}` },
      settings: { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS, history: HISTORY, load_generator: LOAD_GENERATOR },
      baseline: { get: fig(BASE_GET.name), post: fig(BASE_POST.name), durable_post: fig(BASE_DURABLE.name) },
      sandbox: { charge: fig(CHARGE.name), transfer: fig(TRANSFER.name), company: fig(COMPANY.name) },
      ratios: {
        charge_vs_baseline_post: ratio(CHARGE.name, BASE_POST.name),
        transfer_vs_baseline_post: ratio(TRANSFER.name, BASE_POST.name),
        company_vs_baseline_get: ratio(COMPANY.name, BASE_GET.name),
        charge_busy_vs_empty: ratio(`busy ${CHARGE.name}`, CHARGE.name),
        transfer_busy_vs_empty: ratio(`busy ${TRANSFER.name}`, TRANSFER.name),
        company_busy_vs_empty: ratio(`busy ${COMPANY.name}`, COMPANY.name),
      },
      // Not targets: how the writes compare with the bare stack's own acknowledged write.
      context: {
        durable_post_vs_baseline_post: ratio(BASE_DURABLE.name, BASE_POST.name),
        charge_vs_durable_post: ratio(CHARGE.name, BASE_DURABLE.name),
        transfer_vs_durable_post: ratio(TRANSFER.name, BASE_DURABLE.name),
      },
      // Not targets: each figure with a dashboard open over the same figure without one (issue 10:
      // within the machine's noise), and that noise: the spread of the closed figure's ratio to
      // its baseline from round to round.
      dashboard: {
        charge_open_vs_closed: ratio(`${CHARGE.name}, dashboard open`, CHARGE.name),
        transfer_open_vs_closed: ratio(`${TRANSFER.name}, dashboard open`, TRANSFER.name),
        company_open_vs_closed: ratio(`${COMPANY.name}, dashboard open`, COMPANY.name),
        noise: {
          charge: spread(CHARGE.name, BASE_POST.name),
          transfer: spread(TRANSFER.name, BASE_DURABLE.name),
          company: spread(COMPANY.name, BASE_GET.name),
        },
        ...dashboardCounts,
      },
      p99_ms: Math.max(fig(CHARGE.name).p99, fig(TRANSFER.name).p99, fig(COMPANY.name).p99),
      start_to_first_200_ms: Math.round(starts[Math.floor(starts.length / 2)]! * 10) / 10,
      peak_rss_mb: Math.round((peak / 1024 / 1024) * 10) / 10,
      busy: Object.fromEntries(busy),
      // Requests per second of every measurement, round by round, to see the noise the medians hide.
      rounds: Object.fromEntries([...samples].map(([name, xs]) => [name, xs.map((f) => Math.round(f.rps))])),
      seed_seconds: Math.round(seedMs / 100) / 10,
      per_test: perTest,
    }
    const targets: [string, number, string, number][] = [
      // Every answer must be durable first, so the writes are judged against the stack's own
      // acknowledged write (issue 11), not the bare POST.
      ['create charge / durable POST', results.context.charge_vs_durable_post, '>=', 0.45],
      ['create transfer / durable POST', results.context.transfer_vs_durable_post, '>=', 0.4],
      ['company / baseline GET', results.ratios.company_vs_baseline_get, '>=', 0.7],
      ['p99 at 32 connections (ms)', results.p99_ms, '<=', 10],
      ['start to first 200 (ms)', results.start_to_first_200_ms, '<=', 500],
      ['peak RSS under load (MB)', results.peak_rss_mb, '<=', 150],
      ['charge, 1M+1M rows / empty', results.ratios.charge_busy_vs_empty, '>=', 0.9],
      ['transfer, 1M+1M rows / empty', results.ratios.transfer_busy_vs_empty, '>=', 0.9],
      ['company, 1M+1M rows / empty', results.ratios.company_busy_vs_empty, '>=', 0.9],
      ['startSandbox() to ready, first in a process (ms)', perTest.first_start_ms, '<=', 50],
      ['close() (ms)', perTest.close_ms, '<=', 20],
      ['POST /_sandbox/reset, default scenario (ms)', perTest.reset_ms, '<=', 3],
      ['tenant creation / bare POST, sequential', perTest.tenant_vs_baseline_post, '<=', 1.3],
      ['create charge p50 / bare POST, sequential', perTest.charge_vs_baseline_post, '<=', 1.1],
    ]
    writeFileSync(join(ROOT, 'bench/results.json'), JSON.stringify({ ...results, targets: targets.map(([figure, value, op, target]) => ({ figure, value, target: `${op} ${target}`, met: op === '>=' ? value >= target : value <= target })) }, null, 2) + '\n')

    const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`
    const lines = [
      `machine: ${results.machine.cpu} x${results.machine.cores}, node ${results.machine.node}; ${SECONDS}s x ${ROUNDS} rounds, ${CONNECTIONS} connections (${LOAD_GENERATOR})`,
      '',
      row(['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx']),
      row(['---', '---', '---', '---', '---']),
      ...[BASE_GET, BASE_POST, BASE_DURABLE, CHARGE, TRANSFER, COMPANY].map((t) => {
        const f = fig(t.name)
        return row([t.name, Math.round(f.rps), f.p50, f.p99, f.non2xx])
      }),
      '',
      row(['figure', 'measured', 'target', 'met']),
      row(['---', '---', '---', '---']),
      ...targets.map(([figure, value, op, target]) => row([figure, value, `${op} ${target}`, (op === '>=' ? value >= target : value <= target) ? 'yes' : 'NO'])),
      '',
      `per test (medians of sequential calls, one connection): startSandbox() ${perTest.start_ms} ms once warm; fetch: tenant ${perTest.tenant_ms} ms, charge ${perTest.charge_p50_ms} ms, bare POST ${perTest.baseline_post_ms} ms`,
      `  with node:http: tenant ${perTest.node_http.tenant_ms} ms (${perTest.node_http.tenant_vs_baseline_post}x), charge ${perTest.node_http.charge_p50_ms} ms (${perTest.node_http.charge_vs_baseline_post}x), bare POST ${perTest.node_http.baseline_post_ms} ms, reset ${perTest.node_http.reset_ms} ms`,
      '',
      'context (not targets):',
      ...Object.entries(results.context).map(([k, v]) => `  ${k.replaceAll('_', ' ')}: ${v}`),
      `a dashboard open (${dashboardCounts.messages} live messages, ${dashboardCounts.refreshes} page re-reads), over none:` +
        ` charge ${results.dashboard.charge_open_vs_closed}, transfer ${results.dashboard.transfer_open_vs_closed}, company ${results.dashboard.company_open_vs_closed};` +
        ` round-to-round spread without: charge ${results.dashboard.noise.charge}, transfer ${results.dashboard.noise.transfer}, company ${results.dashboard.noise.company}`,
    ]
    process.stdout.write(lines.join('\n') + '\n')
  } finally {
    for (const p of procs) await p.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`)
  process.exit(1)
})
