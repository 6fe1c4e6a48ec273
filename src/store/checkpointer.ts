// Moves WAL checkpoints off the main thread. With synchronous=NORMAL, SQLite only fsyncs when it
// checkpoints; left automatic, that happens inside whichever request commits the 1000th page and
// costs it milliseconds. A worker thread with its own connection checkpoints every second
// instead (PASSIVE: writers never wait for it), and the main connection never does.
//
// A PASSIVE checkpoint never lets the WAL start over while writes go on: the log restarts only
// when a writer finds every frame copied, and under sustained load a commit always lands during
// the copy. The WAL grew by megabytes a second for as long as the load lasted, and its index,
// mapped into memory, with it. A checkpoint that restarts the log from the worker starves: it
// needs the writer's lock, which group commit almost never leaves free. So once the log holds
// `restartFrames` frames, the worker copies what it can (a few quick passes, each shorter than
// the last, until only a handful of frames are left), says so, and the main thread, between two
// transactions, restarts the log itself: it copies that handful, fsyncs, and the next commit
// writes from the start of the file.
//
// Restart, not truncate: truncating a 32 MiB file took the main thread 15-50 ms, and the commits
// after it, which had to allocate the file's blocks again, took 4-9 ms each; both were most of
// the p99 under load. A restart keeps the file and overwrites it, and `journal_size_limit` bounds
// what stays on disk (docs/PERFORMANCE.md).
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { BUSY_TIMEOUT_MS, type Db } from './db.js'

// After asking for a restart the worker stays still until the main thread says it is done: a
// pass of its own at that moment would hold the checkpoint lock, the restart would find it busy
// and do nothing, and under sustained writes the WAL grew past every bound (seen: 13 MB where
// the restart point is 400 KB, in one run of five on a loaded machine).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db
let waiting = false
try { db = new Database(workerData.path, { fileMustExist: true }); db.pragma('busy_timeout = 1000') } catch {}
const pass = () => db?.pragma('wal_checkpoint(PASSIVE)')[0]
const run = () => {
  if (waiting) return
  try {
    let result = pass()
    if (!result || result.log < workerData.restartFrames) return
    // Catch up: each pass copies what was committed during the one before, until one copies
    // only a handful, or more than the one before (writes outpace the copy: the main thread
    // copies the rest). \`checkpointed\` counts every frame copied since the log last started.
    for (let i = 0, last = Infinity; i < workerData.catchUpPasses; i++) {
      const before = result.checkpointed
      result = pass()
      const copied = result.checkpointed - before
      if (copied <= workerData.leftFrames || copied >= last) break
      last = copied
    }
    waiting = true
    parentPort.postMessage('restart')
  } catch {}
}
const timer = setInterval(run, workerData.intervalMs)
parentPort.on('message', (message) => {
  if (message === 'restarted') return void (waiting = false)
  clearInterval(timer); waiting = false; run(); try { db?.close() } catch {} ; parentPort.close()
})
`

/** Copies the frames left and restarts the WAL from the main connection, unless that would wait for a lock. */
export function restartWal(db: Db): void {
  db.pragma('busy_timeout = 0')
  try {
    db.pragma('wal_checkpoint(RESTART)')
  } catch {
    // Busy: the next request to restart will do it.
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  }
}

export interface Checkpointer {
  stop(): Promise<void>
}

/** The WAL's size on disk after a restart, in frames of the restart point: room for a second of writes past it. */
const KEPT_WAL = 2

/**
 * `onFull` is called when the WAL holds `restartFrames` frames or more (8192: 32 MiB, about three
 * seconds of writes at full speed) and the worker has copied all but a few. It is handed `done`,
 * to call once it has restarted the WAL (or tried): the worker checkpoints nothing until then.
 */
export function startCheckpointer(
  db: Db,
  path: string,
  onFull: (done: () => void) => void,
  intervalMs = 1000,
  restartFrames = 8192,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  db.pragma('wal_autocheckpoint = 0')
  const frameBytes = (db.pragma('page_size', { simple: true }) as number) + 24
  db.pragma(`journal_size_limit = ${KEPT_WAL * restartFrames * frameBytes}`)
  const workerData = { driver, path, intervalMs, restartFrames, catchUpPasses: 4, leftFrames: 64 }
  const worker = new Worker(WORKER, { eval: true, workerData })
  worker.unref()
  const onMessage = () => onFull(() => worker.postMessage('restarted'))
  worker.on('message', onMessage)
  // A checkpointer that cannot work costs only disk space (the WAL grows until the next start).
  worker.on('error', () => undefined)
  // Listened to from the start: a worker that already ended (an error) must not leave stop() waiting.
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  return {
    stop: () => {
      // The worker's last pass may still ask for a restart (or have asked, the message on its
      // way): nobody is to act on it, as the caller closes its connection next. Acted on, it
      // called restartWal on a closed connection, and SIGTERM under load exited 1.
      worker.off('message', onMessage)
      // Held while it finishes: unref'd, a script awaiting close() would end with the await unsettled.
      worker.ref()
      worker.postMessage('stop')
      return exited
    },
  }
}
