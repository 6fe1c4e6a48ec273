// Whatever happens to exec, nothing COMMAND started may outlive it. SIGINT, SIGTERM, SIGHUP
// and SIGQUIT are forwarded, but exec can also die in ways it never sees (SIGKILL, a CI runner
// killing exec's own process group, a crash), and COMMAND runs in a group of its own, so nothing
// would reach it. So COMMAND is started by a supervisor: a tiny node process in a session of its
// own, connected to exec by an IPC channel. It exists before COMMAND does (a guard started after
// COMMAND left a window, under load, in which a SIGKILL to exec orphaned it), reports how
// COMMAND ended once what COMMAND left running is stopped, and when the channel closes before
// that (exec is gone, however it died) stops it and exits. What COMMAND left running: its group,
// and on Linux every process carrying the run's mark (RUN_MARK; supervisor-script.ts).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { constants } from 'node:os'
import type { Readable, Writable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { SUPERVISOR } from './supervisor-script.js'
import { createTail, type Tail } from './tail.js'

/**
 * The variable that marks COMMAND and all it starts, so that what leaves its process group is
 * found too: a random id per run, after those of the runs around it (an exec inside COMMAND).
 */
export const RUN_MARK = 'PIX_SANDBOX_EXEC_ID'

export interface Ended {
  /** The code exec passes on: COMMAND's, 128 + the signal that killed it, or 126/127 when it could not run. */
  code: number
  /** Why it could not run. */
  error?: string
  /** The last lines it printed (tail.ts). */
  lastLines: string[]
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

function ending(result: Result | undefined, command: string): Omit<Ended, 'lastLines'> {
  if (result === undefined)
    return { code: 1, error: `${command}: its supervisor process died, so how it ended is unknown` }
  if (result.error) {
    const { code, message } = result.error
    const why =
      code === 'ENOENT'
        ? 'command not found'
        : code === 'EACCES'
          ? 'permission denied (not executable)'
          : message
    return { code: code === 'ENOENT' ? 127 : 126, error: `${command}: ${why}` }
  }
  if (result.signal) return { code: 128 + (constants.signals[result.signal] ?? 0) }
  return { code: result.code ?? 1 }
}

/**
 * How long the output pipes may stay open once the supervisor is gone: held only by a process
 * that escaped the stop (docs/READINESS.md), whose later output is then not passed on.
 */
const PIPES_GRACE_MS = 500

/** Passes `from` on to `to` (with backpressure), and its text to the tail; resolves at its end. */
function passOn(from: Readable, to: Writable, tail: Tail): Promise<unknown> {
  const decoder = new StringDecoder('utf8')
  const write = tail.stream()
  from.on('data', (chunk: Buffer) => write(decoder.write(chunk)))
  from.pipe(to, { end: false })
  return once(from, 'close').catch(() => undefined)
}

/** Starts COMMAND under a supervisor; `graceMs` is what its group gets between SIGTERM and SIGKILL. */
export function supervise(command: string[], env: NodeJS.ProcessEnv, graceMs: number): Supervised {
  // The supervisor's own environment leaves NODE_OPTIONS out: it is meant for COMMAND's node.
  const { NODE_OPTIONS: _, ...own } = process.env
  // COMMAND's output passes through exec (the supervisor hands it these pipes), which keeps its
  // last lines; its input is exec's.
  const supervisor = spawn(process.execPath, ['-e', SUPERVISOR, String(graceMs)], {
    stdio: ['inherit', 'pipe', 'pipe', 'ipc'],
    detached: true,
    env: own,
  })
  const pipes = [supervisor.stdout!, supervisor.stderr!]
  const tail = createTail()
  const output = Promise.all([
    passOn(pipes[0]!, process.stdout, tail),
    passOn(pipes[1]!, process.stderr, tail),
  ])
  const ended = new Promise<Ended>((resolve) => {
    let result: Result | undefined
    supervisor.once('message', (m: Result) => (result = m))
    let finished = false
    const done = async (how: Omit<Ended, 'lastLines'>) => {
      if (finished) return
      finished = true
      // Whatever COMMAND wrote before it ended is read; a pipe still held open past that is
      // let go (its holder escaped the stop).
      let timer: NodeJS.Timeout | undefined
      await Promise.race([output, new Promise((r) => (timer = setTimeout(r, PIPES_GRACE_MS)))])
      clearTimeout(timer)
      for (const pipe of pipes) {
        pipe.unpipe()
        pipe.destroy()
      }
      resolve({ ...how, lastLines: tail.lines() })
    }
    supervisor.on(
      'error',
      (err) =>
        void done({
          code: 126,
          error: `cannot start the supervisor of ${command[0]!}: ${err.message}`,
        }),
    )
    // Both 'exit' and 'disconnect': by then the IPC channel has delivered everything ('close'
    // would also wait for the output pipes, which an escaped process may hold).
    Promise.all([once(supervisor, 'exit'), once(supervisor, 'disconnect')]).then(
      () => void done(ending(result, command[0]!)),
      () => undefined,
    )
  })
  // Not connected when the spawn itself failed (EAGAIN, EMFILE): 'error' has the answer then.
  const mark = randomBytes(16).toString('hex')
  const marked = { ...env, [RUN_MARK]: env[RUN_MARK] ? `${env[RUN_MARK]} ${mark}` : mark }
  if (supervisor.connected) supervisor.send({ command, env: marked, mark })
  return {
    ended,
    signal(signal) {
      if (supervisor.connected) supervisor.send({ signal })
    },
  }
}
