// What a test suite pays on every file and every test: starting and closing an embedded sandbox
// (in this process, in memory, after the import), resetting it, creating a tenant, and one
// charge, each the median of many sequential calls over one keep-alive connection per server.
// Tenant and charge are divided by the bare Hono POST, called in turn with them, one call each
// (base, charge, base, charge...), so that both sides of a ratio meet the same moments of a noisy
// machine; batches of a hundred calls each put 1.19 and 1.43 for one build in two runs. The same
// client for both sides: Node's fetch, as integrators' suites call (and as the targets were set),
// and node:http, whose lighter client shows more of the server's own cost (context, not targets).
// The ratios are those of a warm server, as the baseline is (the load rounds warmed it for
// minutes): a fresh server's JIT takes some 4,000 charges to settle (1.36, 1.30, 1.17, then 1.09
// over batches of 600), so 5,000 pairs warm each kind up, and the first 500 are reported apart.
import { execFileSync } from 'node:child_process'
import { Agent, request } from 'node:http'
import { ROOT } from './processes.js'
import { median } from './samples.js'

const CALLS = Number(process.env.BENCH_CALLS ?? 1500)
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 5000)
/** The first calls of a kind, reported apart: what a fresh server gives before its JIT settles. */
const FIRST = 500

export interface Sequential {
  reset_ms: number
  tenant_ms: number
  charge_p50_ms: number
  /** The bare POST, in the calls made in turn with the tenants, then with the charges. */
  tenant_baseline_post_ms: number
  charge_baseline_post_ms: number
  tenant_vs_baseline_post: number
  charge_vs_baseline_post: number
  /** The same ratios over the first calls of each kind (with fetch, the charges' are a fresh server's). */
  charge_first_calls_vs_baseline_post: number
  tenant_first_calls_vs_baseline_post: number
}

export interface PerTest extends Sequential {
  /** The first startSandbox() of a fresh process, after the import: what a test file pays. */
  first_start_ms: number
  /** The next ones in the same process (a warm JIT). */
  start_ms: number
  close_ms: number
  /** The same calls with node:http. */
  node_http: Sequential
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits

type Post = (url: string, headers: Record<string, string>, body: string) => Promise<number>

/** Node's fetch: sequential calls reuse one keep-alive connection per origin. */
const fetchPost: Post = async (url, headers, body) => {
  const started = performance.now()
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  })
  await res.arrayBuffer()
  if (res.status >= 300) throw new Error(`${url}: ${res.status}`)
  return performance.now() - started
}

/** node:http over a single keep-alive socket per host. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const httpPost: Post = (url, headers, body) =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () =>
          res.statusCode! < 300
            ? resolve(performance.now() - started)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })

const FIRST_START = `
const { startSandbox } = await import(process.argv[1])
const t0 = performance.now()
const sb = await startSandbox()
const ms = performance.now() - t0
await sb.close()
process.stdout.write(String(ms))
`

/** The first start in each of `processes` fresh processes, in sequence: the median. */
function firstStart(processes = 7): number {
  const times: number[] = []
  for (let i = 0; i < processes; i++) {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', FIRST_START, `${ROOT}dist/index.js`],
      { encoding: 'utf8' },
    )
    times.push(Number(out))
  }
  return median(times)
}

/** `sandboxUrl`: a production server on an in-memory store with `adminToken`; `baselineUrl`: bench/baseline.mjs. */
export async function measurePerTest(
  sandboxUrl: string,
  adminToken: string,
  baselineUrl: string,
): Promise<PerTest> {
  const admin = { authorization: `Bearer ${adminToken}` }
  const main = {
    authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
  }
  const sequential = async (post: Post): Promise<Sequential> => {
    const baseline = () => post(`${baselineUrl}/post`, {}, '{"amount":1000}')
    const kinds = {
      tenant: () => post(`${sandboxUrl}/_sandbox/companies`, admin, '{"name":"Bench Ltda"}'),
      charge: () =>
        post(
          `${sandboxUrl}/api/v1/hub/transactions/in`,
          main,
          '{"amount":1000,"description":"bench"}',
        ),
      reset: () => post(`${sandboxUrl}/_sandbox/reset`, admin, '{}'),
    }
    /** `call` in turn with the bare POST: the medians of both once warm, and the ratio of the first calls. */
    const paired = async (call: () => Promise<number>) => {
      const own: number[] = []
      const base: number[] = []
      for (let i = 0; i < WARM_UP + CALLS; i++) base.push(await baseline()), own.push(await call())
      const first = Math.min(FIRST, own.length)
      return {
        own: median(own.slice(-CALLS)),
        base: median(base.slice(-CALLS)),
        first: median(own.slice(0, first)) / median(base.slice(0, first)),
      }
    }
    // Each starts from the default scenario, as a test after a reset does; the charges first,
    // so that their first calls are those of a fresh server.
    await kinds.reset()
    const charge = await paired(kinds.charge)
    await kinds.reset()
    const tenant = await paired(kinds.tenant)
    // An absolute figure: no bare POST in turn with it.
    const resets: number[] = []
    for (let i = 0; i < CALLS; i++) resets.push(await kinds.reset())
    return {
      reset_ms: round(median(resets), 2),
      tenant_ms: round(tenant.own),
      charge_p50_ms: round(charge.own),
      tenant_baseline_post_ms: round(tenant.base),
      charge_baseline_post_ms: round(charge.base),
      tenant_vs_baseline_post: round(tenant.own / tenant.base),
      charge_vs_baseline_post: round(charge.own / charge.base),
      charge_first_calls_vs_baseline_post: round(charge.first),
      tenant_first_calls_vs_baseline_post: round(tenant.first),
    }
  }
  // Measured first, before this process holds sandboxes of its own.
  const viaFetch = await sequential(fetchPost)
  const viaHttp = await sequential(httpPost)
  agent.destroy()

  const first = firstStart()
  const { startSandbox } = (await import(
    `${ROOT}dist/index.js`
  )) as typeof import('../src/index.js')
  const starts: number[] = []
  const closes: number[] = []
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now()
    const sb = await startSandbox()
    const t1 = performance.now()
    await sb.close()
    starts.push(t1 - t0)
    closes.push(performance.now() - t1)
  }
  return {
    first_start_ms: round(first, 1),
    start_ms: round(median(starts), 1),
    close_ms: round(median(closes), 2),
    ...viaFetch,
    node_http: viaHttp,
  }
}
