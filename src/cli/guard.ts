// Whatever happens to exec, COMMAND's process group must not outlive it. SIGINT, SIGTERM, SIGHUP
// and SIGQUIT are forwarded, but exec can also die in ways it never sees (SIGKILL, a CI runner
// killing exec's own process group, a crash): COMMAND runs in a group of its own, so nothing
// would reach it. The guard is a tiny node process in a session of its own, holding the read
// end of a pipe from exec: when that pipe closes before exec has said "done", exec is gone, and
// the guard stops the group (SIGTERM, then SIGKILL after the grace) and exits.
import { spawn } from 'node:child_process'

/** Runs in the guard: argv[1] is the group, argv[2] the grace in ms. */
const GUARD = `
const [group, grace] = [Number(process.argv[1]), Number(process.argv[2])]
const alive = () => { try { process.kill(-group, 0); return true } catch { return false } }
const signal = (s) => { try { process.kill(-group, s) } catch {} }
let done = false
process.stdin.on('data', () => { done = true })
process.stdin.on('error', () => {})
process.stdin.on('close', () => {
  if (done || !alive()) process.exit(0)
  signal('SIGTERM')
  const until = Date.now() + grace
  const wait = setInterval(() => {
    if (alive() && Date.now() < until) return
    clearInterval(wait)
    signal('SIGKILL')
    process.exit(0)
  }, 25)
})
`

export interface Guard {
  /** COMMAND's group has been dealt with: the guard exits without signalling anything. */
  release(): void
}

/** Starts the guard of process group `group`. */
export function guardGroup(group: number, graceMs: number): Guard {
  const guard = spawn(process.execPath, ['-e', GUARD, String(group), String(graceMs)], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
  guard.on('error', () => {}) // without a guard exec still stops the group itself, as before
  guard.stdin!.on('error', () => {})
  guard.unref()
  return {
    release() {
      guard.stdin!.end('done')
    },
  }
}
