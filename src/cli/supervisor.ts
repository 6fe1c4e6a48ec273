// Whatever happens to exec, COMMAND's process group must not outlive it. SIGINT, SIGTERM, SIGHUP
// and SIGQUIT are forwarded, but exec can also die in ways it never sees (SIGKILL, a CI runner
// killing exec's own process group, a crash), and COMMAND runs in a group of its own, so nothing
// would reach it. So COMMAND is started by a supervisor: a tiny node process in a session of its
// own, connected to exec by an IPC channel. It exists before COMMAND does (a guard started after
// COMMAND left a window, under load, in which a SIGKILL to exec orphaned it), reports how
// COMMAND ended once what COMMAND left in its group is stopped, and when the channel closes
// before that (exec is gone, however it died) stops the group and exits.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'

/** Runs in the supervisor: argv[1] is the grace in ms. CommonJS (`node -e`), self-contained. */
const SUPERVISOR = `
const { spawn } = require('node:child_process')
const { readdirSync, readFileSync } = require('node:fs')
const grace = Number(process.argv[1])
let group, finished = false
// The group's live members, from /proc on Linux: an exited member not reaped yet (a zombie; never
// reaped when the parent it is handed to is a container's PID 1 that is no init) still answers
// kill(0), and would hold the supervisor for the whole grace.
function liveMembers() {
  let entries
  try { entries = readdirSync('/proc') } catch { return undefined }
  let live = 0
  for (const entry of entries) {
    if (!/^\\d+$/.test(entry)) continue
    try {
      const stat = readFileSync('/proc/' + entry + '/stat', 'utf8')
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(pgrp) === group && state !== 'Z') live++
    } catch {}
  }
  return live
}
const alive = () => {
  if (group === undefined) return false
  try { process.kill(-group, 0) } catch { return false }
  return (liveMembers() ?? 1) > 0
}
const signal = (s) => { if (group !== undefined) try { process.kill(-group, s) } catch {} }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function reap() {
  if (!alive()) return
  signal('SIGTERM')
  for (const until = Date.now() + grace; alive() && Date.now() < until; ) await sleep(25)
  if (alive()) signal('SIGKILL')
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
  child.once('error', error)
  child.once('exit', async (code, sig) => {
    await reap()
    finish({ code, signal: sig })
  })
})
`

export interface Ended {
  /** The code exec passes on: COMMAND's, 128 + the signal that killed it, or 126/127 when it could not run. */
  code: number
  /** Why it could not run. */
  error?: string
}

interface Result {
  code?: number | null
  signal?: NodeJS.Signals | null
  error?: { code?: string; message: string }
}

export interface Supervised {
  /** How COMMAND ended, once what it left running in its group is stopped too. */
  ended: Promise<Ended>
  /** Sends a signal to COMMAND's group. */
  signal(signal: NodeJS.Signals): void
}

function ending(result: Result | undefined, command: string): Ended {
  if (result === undefined) return { code: 1, error: `${command}: its supervisor process died, so how it ended is unknown` }
  if (result.error) {
    const { code, message } = result.error
    const why = code === 'ENOENT' ? 'command not found' : code === 'EACCES' ? 'permission denied (not executable)' : message
    return { code: code === 'ENOENT' ? 127 : 126, error: `${command}: ${why}` }
  }
  if (result.signal) return { code: 128 + (constants.signals[result.signal] ?? 0) }
  return { code: result.code ?? 1 }
}

/** Starts COMMAND under a supervisor; `graceMs` is what its group gets between SIGTERM and SIGKILL. */
export function supervise(command: string[], env: NodeJS.ProcessEnv, graceMs: number): Supervised {
  // The supervisor's own environment leaves NODE_OPTIONS out: it is meant for COMMAND's node.
  const { NODE_OPTIONS: _, ...own } = process.env
  const supervisor = spawn(process.execPath, ['-e', SUPERVISOR, String(graceMs)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], detached: true, env: own })
  const ended = new Promise<Ended>((resolve) => {
    let result: Result | undefined
    supervisor.once('message', (m: Result) => (result = m))
    // 'close', not 'exit': it comes after the IPC channel has delivered everything.
    supervisor.on('error', (err) => resolve({ code: 126, error: `cannot start the supervisor of ${command[0]!}: ${err.message}` }))
    supervisor.once('close', () => resolve(ending(result, command[0]!)))
  })
  // Not connected when the spawn itself failed (EAGAIN, EMFILE): 'error' has the answer then.
  if (supervisor.connected) supervisor.send({ command, env })
  return {
    ended,
    signal(signal) {
      if (supervisor.connected) supervisor.send({ signal })
    },
  }
}
