// Transactions with group commit. Each use case runs in a savepoint of a shared transaction
// that commits once per turn of the event loop, so the concurrent requests of one turn share one
// commit (one WAL write) instead of paying one each. A use case that fails rolls back its own
// savepoint only. Nothing is acknowledged before its commit: the HTTP layer awaits `pendingCommit()`
// before it answers, so an answered write survives a crash.
import type { Db } from './db.js'

interface Pending {
  promise: Promise<void>
  resolve: () => void
  reject: (err: unknown) => void
}

export function transactions(db: Db) {
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const savepoint = db.prepare('SAVEPOINT op')
  const release = db.prepare('RELEASE op')
  const rollbackTo = db.prepare('ROLLBACK TO op')
  let pending: Pending | null = null

  /** Commits the shared transaction now, if one is open. */
  function flush(): void {
    const p = pending
    if (!p) return
    pending = null
    try {
      commit.run()
      p.resolve()
    } catch (err) {
      if (db.inTransaction) rollback.run()
      p.reject(err)
    }
  }

  function open(): void {
    let resolve!: () => void
    let reject!: (err: unknown) => void
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
    promise.catch(() => undefined) // a failed commit is reported to those who await it
    begin.run()
    pending = { promise, resolve, reject }
    setImmediate(flush)
  }

  function transact<T>(fn: () => T): T {
    if (!db.inTransaction) open()
    savepoint.run()
    try {
      const result = fn()
      release.run()
      return result
    } catch (err) {
      rollbackTo.run()
      release.run()
      throw err
    }
  }

  return {
    transact,
    flush,
    /** The commit to wait for, or undefined when nothing is pending (saves a microtask). */
    pendingCommit: (): Promise<void> | undefined => pending?.promise,
  }
}
