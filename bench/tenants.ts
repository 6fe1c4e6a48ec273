// What other tenants' data costs one tenant's contract calls (docs/PERFORMANCE.md, "One tenant
// beside many"): the built server on a file store, the default scenario's main company measured
// (transfer, charge, company; load.ts's generator) on a fresh store, beside another company
// holding as many queued outcomes and faults as it may, beside the admin's global outcomes, and
// on a store of 10,000 companies (one webhook subscription each) and 150,000 charges.
// `npx tsx bench/tenants.ts` (builds first); TENANTS_SECONDS, TENANTS_COMPANIES, TENANTS_CHARGES,
// TENANTS_QUEUED (default 1,000: the limit), TENANTS_MAIN and TENANTS_CROWD_ONLY change it. Not
// part of `npm run bench`.
import { execSync } from 'node:child_process'
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { drive, type Figures } from './load.js'
import { ROOT, SERVER_ARGS, startProcess, type Proc } from './processes.js'
import { CHARGE, COMPANY, TRANSFER } from './routes.js'

const SECONDS = Number(process.env.TENANTS_SECONDS ?? 3)
const COMPANIES = Number(process.env.TENANTS_COMPANIES ?? 10_000)
const CHARGES = Number(process.env.TENANTS_CHARGES ?? 150_000)
const QUEUED = Number(process.env.TENANTS_QUEUED ?? 1000)
const ROUNDS = Number(process.env.TENANTS_ROUNDS ?? 3)
const CONNECTIONS = 8
const ADMIN_TOKEN = 'bench-admin-token-0123456789'
const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }

type Row = Record<string, Figures>

async function call(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}

/** Runs `n` calls of `one`, `width` at a time; answers how many answered 2xx. */
async function many(
  n: number,
  width: number,
  one: (i: number) => Promise<{ status: number }>,
): Promise<number> {
  let next = 0
  let ok = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const r = await one(next++)
        if (r.status < 300) ok++
      }
    }),
  )
  return ok
}

/** The main company's three calls, one after another, each for SECONDS, ROUNDS times: the median round of each. */
async function measure(url: string): Promise<Row> {
  const runs: Record<string, Figures[]> = {}
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of [TRANSFER, CHARGE, COMPANY]) {
      await new Promise((r) => setTimeout(r, 1200)) // the checkpoint of the last load
      ;(runs[t.name] ??= []).push(await drive(url, t, SECONDS, CONNECTIONS))
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, figures]) => [
      name,
      figures.sort((a, b) => a.rps - b.rps)[figures.length >> 1]!,
    ]),
  )
}

// TENANTS_MAIN: another build's main.js to measure (an earlier commit's, for a before/after).
const ARGS = process.env.TENANTS_MAIN
  ? [...SERVER_ARGS.slice(0, -1), process.env.TENANTS_MAIN]
  : SERVER_ARGS
// Room for the crowd beside the scenario's own companies.
const start = (dir: string, name: string) =>
  startProcess(
    ARGS,
    {
      DATABASE: join(dir, `${name}.db`),
      LOG_LEVEL: 'warn',
      SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
      SCENARIOS_DIR: join(ROOT, 'scenarios'),
      MAX_COMPANIES: String(COMPANIES + 100),
    },
    '/_sandbox/health',
    60_000,
  )

/** Another company, with as many queued outcomes and faults as it may hold (neither ever matches the main company). */
async function noisyNeighbour(s: Proc): Promise<string> {
  const { body } = await call(s.url, 'POST', '/_sandbox/companies', ADMIN, {
    name: 'Vizinha Barulhenta',
  })
  const auth = { authorization: `Basic ${body.token}`, 'content-type': 'application/json' }
  const outcomes = await many(QUEUED, 8, () =>
    call(s.url, 'POST', '/_sandbox/outcomes', auth, {
      status: 'failed',
      times: 1000,
      match: { amount: 77 },
    }),
  )
  const faults = await many(QUEUED, 8, () =>
    call(s.url, 'POST', '/_sandbox/faults', auth, {
      operation: 'transfer',
      status: 503,
      times: 1000,
    }),
  )
  const refused = await call(s.url, 'POST', '/_sandbox/faults', auth, {
    operation: 'transfer',
    status: 503,
  })
  return `${outcomes} outcomes and ${faults} faults queued (one more: ${refused.status}${refused.body?.detail ? ` ${refused.body.detail}` : ''})`
}

/** The admin's global outcomes, which every company's transfers look at; none matches the measured ones. */
async function globalOutcomes(s: Proc): Promise<string> {
  const n = await many(QUEUED, 8, () =>
    call(s.url, 'POST', '/_sandbox/outcomes', ADMIN, {
      status: 'failed',
      times: 1000,
      match: { amount: 77 },
    }),
  )
  return `${n} global outcomes queued`
}

const crowdCompany = (i: number) => ({
  id: `crowd-${i}`,
  name: `Crowd ${i} Ltda`,
  users: [
    {
      id: `crowd-${i}-user`,
      balance: 0,
      credentials: [{ client_id: `crowd-${i}`, client_secret: `crowd-${i}-secret-0123456789` }],
    },
  ],
})

/** COMPANIES companies (scenario documents, 1,000 at a time), one webhook subscription each (the control plane). */
async function crowdCompanies(s: Proc): Promise<void> {
  for (let from = 0; from < COMPANIES; from += 1000) {
    const companies = Array.from({ length: Math.min(1000, COMPANIES - from) }, (_, k) =>
      crowdCompany(from + k),
    )
    const r = await call(s.url, 'POST', '/_sandbox/scenarios', ADMIN, { document: { companies } })
    if (r.status !== 200) throw new Error(`scenario: ${r.status} ${JSON.stringify(r.body)}`)
  }
  await many(COMPANIES, 8, (i) =>
    call(s.url, 'POST', '/_sandbox/webhooks', ADMIN, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['charge.paid'],
      company_id: `crowd-${i}`,
    }),
  )
}

/** CHARGES pending charges spread over the crowd, written straight into the stopped server's store (as seed.ts). */
function crowdCharges(database: string): void {
  const db = new Database(database)
  const now = Date.UTC(2026, 0, 1) * 1000
  const insert =
    db.prepare(`INSERT INTO charges (id, company_id, user_id, amount, status, qr_code, qr_code_name, location_id, created_at, expires_at, due_at)
    VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`)
  const code =
    '00020101021226730014br.gov.bcb.pix2551localhost:8080/pix/qr/v2/crowd00000000000000000000520400005303986540510.005802BR5912Crowd Ltda6009Sao Paulo62070503***6304ABCD'
  const far = Date.UTC(2100, 0, 1) * 1000
  db.transaction(() => {
    for (let i = 0; i < CHARGES; i++) {
      const c = i % COMPANIES
      insert.run(
        `crowd${i.toString(36).padStart(27, '0')}`,
        `crowd-${c}`,
        `crowd-${c}-user`,
        100 + (i % 1000),
        code,
        `Crowd ${c} #${i}`,
        `c${i.toString(36).padStart(24, '0')}`,
        now,
        far,
        far,
      )
    }
  })()
  db.close()
}

const cell = (f: Figures) =>
  `${Math.round(f.rps)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms${f.non2xx ? `, ${f.non2xx} non-2xx` : ''}`

async function main(): Promise<void> {
  if (!process.env.TENANTS_MAIN) execSync('npm run build --silent', { cwd: ROOT, stdio: 'inherit' })
  const dir = mkdtempSync(join(tmpdir(), 'pix-tenants-'))
  const stages: [string, (s: Proc) => Promise<string>][] = [
    ['fresh store', async () => 'the default scenario only'],
    ['another company at its queue limits', noisyNeighbour],
    ["the admin's global outcomes", globalOutcomes],
  ]
  const report = (name: string, what: string, row: Row) => {
    process.stdout.write(`\n${name}: ${what}\n`)
    for (const [route, f] of Object.entries(row))
      process.stdout.write(`  ${route.padEnd(16)} ${cell(f)}\n`)
  }
  try {
    // TENANTS_CROWD_ONLY=1: the last measurement alone.
    for (const [i, [name, setUp]] of process.env.TENANTS_CROWD_ONLY ? [] : stages.entries()) {
      const s = await start(dir, `stage${i}`)
      try {
        const what = await setUp(s)
        report(name, what, await measure(s.url))
      } finally {
        await s.stop()
      }
    }
    // The crowd: companies and subscriptions through the control plane, charges into the stopped
    // store, then the neighbour's queues, and the same measurements.
    const started = performance.now()
    let s = await start(dir, 'crowd')
    await crowdCompanies(s)
    await s.stop()
    crowdCharges(join(dir, 'crowd.db'))
    s = await start(dir, 'crowd')
    try {
      const queued = await noisyNeighbour(s)
      const what = `${COMPANIES} companies with a webhook subscription each, ${CHARGES} pending charges among them, and ${queued} (set up in ${Math.round((performance.now() - started) / 1000)} s)`
      report(`${COMPANIES} companies, ${CHARGES} charges`, what, await measure(s.url))
    } finally {
      await s.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
