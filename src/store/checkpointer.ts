// Moves WAL checkpoints off the main thread. With synchronous=NORMAL, SQLite only fsyncs when it
// checkpoints; left automatic, that happens inside whichever request commits the 1000th page and
// costs it milliseconds. A worker thread with its own connection checkpoints every second
// instead (PASSIVE: writers never wait for it), and the main connection never does.
//
// A PASSIVE checkpoint never lets the WAL start over while writes go on: the log restarts only
// when a writer finds every frame copied, and under sustained load a commit always lands during
// the copy. The WAL grew by megabytes a second for as long as the load lasted, and its index,
// mapped into memory, with it. A TRUNCATE checkpoint from the worker starves: it needs the
// writer's lock, which group commit almost never leaves free. So once the log holds
// `restartFrames` frames, the worker says so right after a PASSIVE pass, and the main thread,
// between two transactions, truncates the WAL itself: it copies only the frames committed since
// that pass (a few milliseconds, rarely).
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { BUSY_TIMEOUT_MS, type Db } from './db.js'

// After asking for a truncation the worker stays still until the main thread says it is done:
// a PASSIVE pass of its own at that moment would make the TRUNCATE find the log busy and do
// nothing, and under sustained writes the WAL then grew past every bound (seen: 13 MB where the
// restart point is 400 KB, in one run of five on a loaded machine).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db
let waiting = false
try { db = new Database(workerData.path, { fileMustExist: true }); db.pragma('busy_timeout = 1000') } catch {}
const run = () => {
  if (waiting) return
  try {
    const [passive] = db?.pragma('wal_checkpoint(PASSIVE)') ?? []
    if (passive && passive.log >= workerData.restartFrames) {
      waiting = true
      parentPort.postMessage('truncate')
    }
  } catch {}
}
const timer = setInterval(run, workerData.intervalMs)
parentPort.on('message', (message) => {
  if (message === 'truncated') return void (waiting = false)
  clearInterval(timer); waiting = false; run(); try { db?.close() } catch {} ; parentPort.close()
})
`

/** Empties the WAL from the main connection, unless that would wait for a lock. */
export function truncateWal(db: Db): void {
  db.pragma('busy_timeout = 0')
  try {
    db.pragma('wal_checkpoint(TRUNCATE)')
  } catch {
    // Busy: the next request to truncate will do it.
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
  }
}

export interface Checkpointer {
  stop(): Promise<void>
}

/**
 * `onFull` is called when the WAL holds `restartFrames` frames or more (8192: 32 MiB, about three
 * seconds of writes at full speed) and a PASSIVE pass has just copied them. It is handed `done`,
 * to call once it has truncated (or tried): the worker checkpoints nothing until then.
 */
export function startCheckpointer(db: Db, path: string, onFull: (done: () => void) => void, intervalMs = 1000, restartFrames = 8192): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  db.pragma('wal_autocheckpoint = 0')
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, path, intervalMs, restartFrames } })
  worker.unref()
  worker.on('message', () => onFull(() => worker.postMessage('truncated')))
  // A checkpointer that cannot work costs only disk space (the WAL grows until the next start).
  worker.on('error', () => undefined)
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once('exit', () => resolve())
        worker.postMessage('stop')
      }),
  }
}
