// npm run bench:docker: the Docker image's start, `docker run` to the first 200 on
// /_sandbox/health (target <= 1 s), the median of RUNS runs after one warm-up, and its size.
// With no engine answering (CI) it says so and exits 0. Linux engines: the container shares the
// host's network (`--network host`, on a free port), so no port publishing is timed.
// `--build` builds the image first (`docker build --network host`); BENCH_DOCKER_IMAGE names it.
import { execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { freePort, ROOT } from './processes.js'
import { median } from './samples.js'

const IMAGE = process.env.BENCH_DOCKER_IMAGE ?? 'pix-sandbox'
const RUNS = Number(process.env.BENCH_DOCKER_RUNS ?? 7)
const TIMEOUT_MS = 30_000
const exec = promisify(execFile)

const docker = async (...args: string[]) =>
  (await exec('docker', args, { maxBuffer: 1 << 24 })).stdout.trim()
const ms = (x: number) => `${Math.round(x)} ms`
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`

/** Milliseconds from spawning `docker run <args>` until `ready()` holds; the container is then removed. */
async function timeRun(
  args: string[],
  ready: (child: ReturnType<typeof spawn>, out: string) => Promise<boolean>,
): Promise<number> {
  const name = `pix-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`
  const started = performance.now()
  const child = spawn('docker', ['run', '--rm', '--name', name, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  try {
    while (!(await ready(child, out))) {
      if (performance.now() - started > TIMEOUT_MS)
        throw new Error(`not ready within ${TIMEOUT_MS} ms:\n${out}`)
      await new Promise((r) => setTimeout(r, 5))
    }
    return performance.now() - started
  } finally {
    const exited =
      child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r))
    await docker('rm', '-f', name).catch(() => undefined)
    await exited
  }
}

async function toFirst200(): Promise<number> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/_sandbox/health`
  return timeRun(['--network', 'host', '-e', `PORT=${port}`, IMAGE], async (child) => {
    if (child.exitCode !== null) throw new Error(`the container exited (${child.exitCode})`)
    return fetch(url).then(
      (r) => r.status === 200,
      () => false,
    )
  })
}

/** The engine's and Node's own share: the same image running `node -e` that prints one line. */
async function bareContainer(): Promise<number> {
  return timeRun(['--network', 'host', IMAGE, 'node', '-e', 'console.log("up")'], async (_, out) =>
    out.includes('up'),
  )
}

async function main(): Promise<void> {
  const server = await docker('version', '--format', '{{.Server.Version}}').catch(
    (e: Error & { stderr?: string }) => {
      const why = (e.stderr?.trim() || e.message).split('\n').at(-1)
      console.info(`bench:docker skipped: no Docker engine answers (${why})`)
      return undefined
    },
  )
  if (server === undefined) return
  if (process.argv.includes('--build')) {
    console.info(`building ${IMAGE} (docker build --network host)...`)
    await exec('docker', ['build', '--network', 'host', '-t', IMAGE, ROOT], { maxBuffer: 1 << 26 })
  }
  const size = await docker('image', 'inspect', IMAGE, '--format', '{{.Size}}').catch(
    () => undefined,
  )
  if (size === undefined) {
    console.error(
      `bench:docker: no image ${IMAGE}: build it (docker build --network host -t ${IMAGE} .) or pass --build`,
    )
    process.exitCode = 1
    return
  }
  const base = await docker('image', 'inspect', 'node:22-slim', '--format', '{{.Size}}').catch(
    () => undefined,
  )

  await toFirst200() // warm-up: the first run after a build reads the image from disk
  const runs: number[] = []
  for (let i = 0; i < RUNS; i++) runs.push(await toFirst200())
  const bare: number[] = []
  for (let i = 0; i < 3; i++) bare.push(await bareContainer())

  const first = median(runs)
  console.info(`Docker ${server}, image ${IMAGE}, ${RUNS} runs after one warm-up`)
  console.info(
    `  docker run to first 200   median ${ms(first)} (min ${ms(Math.min(...runs))}, max ${ms(Math.max(...runs))}); target <= 1000 ms: ${first <= 1000 ? 'met' : 'NOT met'}`,
  )
  console.info(`  runs                      ${runs.map(ms).join(', ')}`)
  console.info(
    `  container alone           median ${ms(median(bare))} (the same image printing one line from node -e)`,
  )
  console.info(
    `  image size                ${mb(Number(size))}${base ? ` (node:22-slim base ${mb(Number(base))})` : ''}`,
  )
}

await main()
