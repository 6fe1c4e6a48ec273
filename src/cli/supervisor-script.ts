// The program the supervisor runs (`node -e`: CommonJS, self-contained, no file to ship or find).
// It starts COMMAND in a session of its own, passes on the signals exec forwards, and stops what
// COMMAND left running: when COMMAND ends (then it reports how), and when exec's IPC channel
// closes first (exec is gone, however it died). argv[1] is the grace in ms.
//
// What COMMAND left running is, on Linux, read from /proc: the live members of COMMAND's group,
// and every live process whose environment carries the run's mark (exec's env puts it in
// COMMAND's; every descendant inherits it, whatever its group, session or parent: setsid, a
// `set -m` job, a detached child, a double fork). Elsewhere (no /proc), COMMAND's group alone.
export const SUPERVISOR = `
const { spawn } = require('node:child_process')
const { readdirSync, readFileSync } = require('node:fs')
const grace = Number(process.argv[1])
let group, mark, finished = false
// The pids left running, or undefined without /proc. A zombie (exited, not reaped yet: never
// reaped when the parent it is handed to is a container's PID 1 that is no init) still answers
// kill(0), and would hold the supervisor for the whole grace: it does not count.
function left() {
  let entries
  try { entries = readdirSync('/proc') } catch { return undefined }
  const pids = []
  for (const entry of entries) {
    if (!/^\\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      const stat = readFileSync('/proc/' + entry + '/stat', 'utf8')
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (state === 'Z') continue
      // An environment that may not be read (another user's, a non-dumpable process's) throws:
      // only the group finds those.
      if (Number(pgrp) === group || readFileSync('/proc/' + entry + '/environ').includes(mark)) pids.push(Number(entry))
    } catch {}
  }
  return pids
}
const kill = (pid, s) => { try { process.kill(pid, s) } catch {} }
const signal = (s) => { if (group !== undefined) kill(-group, s) }
// Signals what is left (the group, and what left it); false when nothing is. With \`once\`, a
// pid it holds is not signalled again (SIGTERM once each, but also to one forked meanwhile).
function stop(s, once) {
  if (group === undefined) return false
  let pids = left()
  if (pids === undefined) {
    try { process.kill(-group, 0) } catch { return false }
    pids = [-group]
  }
  for (const pid of pids) {
    if (once && once.has(pid)) continue
    kill(pid, s)
    if (once) once.add(pid)
  }
  return pids.length > 0
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function reap() {
  const termed = new Set()
  if (!stop('SIGTERM', termed)) return
  for (const until = Date.now() + grace; Date.now() < until; ) {
    await sleep(25)
    if (!stop('SIGTERM', termed)) return
  }
  // Until none is left: one may have forked between the look and the kill.
  for (const until = Date.now() + 1000; stop('SIGKILL') && Date.now() < until; ) await sleep(10)
}
function finish(result) {
  if (finished) return
  finished = true
  if (!process.connected) process.exit(0)
  process.send(result, () => process.exit(0))
}
process.on('disconnect', async () => {
  if (finished) return
  await reap()
  process.exit(0)
})
process.on('message', (m) => {
  if (m.signal) return signal(m.signal)
  if (!m.command || group !== undefined) return
  const error = (err) => finish({ error: { code: err.code, message: err.message } })
  let child
  try {
    child = spawn(m.command[0], m.command.slice(1), { stdio: 'inherit', env: m.env, detached: true })
  } catch (err) {
    return error(err)
  }
  group = child.pid
  mark = m.mark
  child.once('error', error)
  child.once('exit', async (code, sig) => {
    await reap()
    finish({ code, signal: sig })
  })
})
`
