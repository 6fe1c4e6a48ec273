// The packed tarball, installed into an empty project, used the two ways a user does: the CLI
// (`npx --no-install pix-sandbox --port X`, then a charge) and `import { startSandbox } from 'pix-sandbox'` in a
// script that creates a charge, closes it and must exit by itself. Plain JavaScript with no
// dependency, so that it runs inside a bare Node container: scripts/docker-node.sh runs it there.
// Usage, in the project where the tarball is installed: node tarball-smoke.mjs
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:net'

const BASIC = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`
const charge = (base, authorization) =>
  fetch(`${base}/hub/transactions/in`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1000, description: 'smoke' }),
  })

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address()
    s.close(() => resolve(port))
  })
})

// 1. The CLI, as `npx --no-install pix-sandbox` starts it.
const npx = ['--no-install', 'pix-sandbox']
const version = execFileSync('npx', [...npx, '--version'], { encoding: 'utf8' }).trim()
const started = performance.now()
// Its own process group: npm 11 dies of a SIGTERM sent to npx alone and leaves the server running,
// as a terminal's Ctrl-C (sent to the whole group) does not.
const cli = spawn('npx', [...npx, '--port', String(port), '--db', ':memory:'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
})
let ready = false
while (!ready) {
  if (cli.exitCode !== null) throw new Error(`the CLI exited (${cli.exitCode})`)
  if (performance.now() - started > 30_000) throw new Error('the CLI did not answer within 30 s')
  ready = await fetch(`http://127.0.0.1:${port}/_sandbox/health`).then(
    (r) => r.status === 200,
    () => false,
  )
  await new Promise((r) => setTimeout(r, 20))
}
const cliMs = Math.round(performance.now() - started)
const viaCli = await charge(`http://127.0.0.1:${port}/api/v1`, BASIC)
if (viaCli.status !== 200 && viaCli.status !== 201)
  throw new Error(`CLI charge: ${viaCli.status} ${await viaCli.text()}`)
const cliExit = await new Promise((resolve) => {
  cli.once('exit', (code, signal) => resolve(code ?? signal))
  process.kill(-cli.pid, 'SIGTERM')
})
const health = () =>
  fetch(`http://127.0.0.1:${port}/_sandbox/health`).then(
    () => 'answering',
    () => 'gone',
  )
for (let i = 0; i < 100 && (await health()) === 'answering'; i++)
  await new Promise((r) => setTimeout(r, 50))
if ((await health()) !== 'gone')
  throw new Error('the server still answers after SIGTERM to its process group')
console.log(
  `cli: pix-sandbox ${version} answered in ${cliMs} ms, charge ${viaCli.status} ${(await viaCli.json()).status}, stopped by SIGTERM to its process group (npx: ${cliExit})`,
)

// 2. Embedded, in a process of its own that must end by itself after close().
const program = `
import { startSandbox } from 'pix-sandbox'
const sb = await startSandbox()
const r = await fetch(sb.baseUrl + '/hub/transactions/in', { method: 'POST',
  headers: { authorization: sb.credentials.main.authorization, 'content-type': 'application/json' },
  body: JSON.stringify({ amount: 1000 }) })
console.log('charge', r.status, (await r.json()).status)
await sb.close()`
const t0 = performance.now()
const embedded = spawn(process.execPath, ['--input-type=module', '-e', program], {
  stdio: ['ignore', 'pipe', 'inherit'],
})
let out = ''
embedded.stdout.on('data', (d) => (out += d))
const timer = setTimeout(() => embedded.kill('SIGKILL'), 20_000)
const [code, signal] = await new Promise((resolve) =>
  embedded.once('exit', (c, s) => resolve([c, s])),
)
clearTimeout(timer)
if (code !== 0 || !/^charge 20[01] pending/m.test(out))
  throw new Error(`embedded: exit ${code ?? signal}, output: ${out}`)
console.log(
  `embedded: ${out.trim()}, exited by itself (code 0) in ${Math.round(performance.now() - t0)} ms`,
)
console.log(`ok on Node ${process.version}`)
