// Moves WAL checkpoints off the main thread. With synchronous=NORMAL, SQLite only fsyncs when it
// checkpoints; left automatic, that happens inside whichever request commits the 1000th page and
// costs it milliseconds. A worker thread with its own connection checkpoints every second
// instead (PASSIVE: writers never wait for it), and the main connection never does.
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { Db } from './db.js'

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
let db
try { db = new Database(workerData.path, { fileMustExist: true }); db.pragma('busy_timeout = 1000') } catch {}
const run = () => { try { db?.pragma('wal_checkpoint(PASSIVE)') } catch {} }
const timer = setInterval(run, workerData.intervalMs)
parentPort.on('message', () => { clearInterval(timer); run(); try { db?.close() } catch {} ; parentPort.close() })
`

export interface Checkpointer {
  stop(): Promise<void>
}

export function startCheckpointer(db: Db, path: string, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  db.pragma('wal_autocheckpoint = 0')
  const worker = new Worker(WORKER, { eval: true, workerData: { driver, path, intervalMs } })
  worker.unref()
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
