// Transactions with group commit. Each use case runs in a shared transaction that commits once
// per turn of the event loop, so the concurrent requests of one turn share one commit (one WAL
// write) instead of paying one each. A use case runs in a savepoint and, failing, rolls back its
// own savepoint only; or, split into decide and record, without one (`transactDecided`).
// Nothing is acknowledged before its commit: the HTTP layer awaits `pendingCommit()` before it
// answers, so an answered write survives a crash. In memory there is no file to share a commit
// for: each use case commits as it ends (`groupCommit: false`), before it answers, as on a file.
import type { Db } from './db.js'
import { IdTaken } from './id-taken.js'
import { writeHealth, type WriteHealth } from './write-health.js'

interface Pending {
  promise: Promise<void>
  resolve: () => void
  reject: (err: unknown) => void
  /** What puts state kept outside the database (the clock) back, should the group be lost: newest first. */
  undo: (() => void)[]
}

/** Undoes, newest first, what a lost group had changed outside the database. */
const undoAll = (p: Pending | null): void => {
  for (const fn of p?.undo.reverse() ?? []) fn()
}

/**
 * `groupCommit: false` commits each use case as it ends: for a database in memory, whose commit
 * writes no file and so has nothing to share, while waiting for the turn's end delays every
 * answer by a turn of the event loop.
 */
export function transactions(
  db: Db,
  {
    groupCommit = true,
    health = writeHealth(() => undefined),
    onRolledBack = () => undefined,
  }: { groupCommit?: boolean; health?: WriteHealth; onRolledBack?: () => void } = {},
) {
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const savepoint = db.prepare('SAVEPOINT op')
  const release = db.prepare('RELEASE op')
  const rollbackTo = db.prepare('ROLLBACK TO op')
  let pending: Pending | null = null

  let betweenTransactions: (() => void)[] = []

  /** Commits the shared transaction now, if one is open; then runs what waited for no transaction. */
  function flush(): void {
    const p = pending
    if (p) {
      pending = null
      try {
        commit.run()
        health.succeeded()
        p.resolve()
      } catch (err) {
        // A full disk fails here, at the commit, where the WAL is written.
        if (db.inTransaction) rollback.run()
        undoAll(p)
        onRolledBack()
        p.reject(health.failed(err))
      }
    }
    const waiting = betweenTransactions
    betweenTransactions = []
    for (const fn of waiting) fn()
  }

  /** Runs `fn` outside any transaction: now, or right after the pending commit. */
  function whenIdle(fn: () => void): void {
    if (!pending && !db.inTransaction) return fn()
    betweenTransactions.push(fn)
  }

  function open(): void {
    let resolve!: () => void
    let reject!: (err: unknown) => void
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
    promise.catch(() => undefined) // a failed commit is reported to those who await it
    begin.run()
    pending = { promise, resolve, reject, undo: [] }
    setImmediate(flush)
  }

  /** A use case alone in its transaction, committed as it ends (without group commit). */
  function alone<T>(fn: () => T, onFailure?: () => void): T {
    begin.run()
    try {
      const result = fn()
      commit.run()
      health.succeeded()
      return result
    } catch (err) {
      if (db.inTransaction) rollback.run()
      onFailure?.()
      throw health.failed(err)
    }
  }

  function transact<T>(fn: () => T): T {
    if (!groupCommit && !db.inTransaction) return alone(fn)
    if (!db.inTransaction) open()
    savepoint.run()
    try {
      const result = fn()
      release.run()
      return result
    } catch (err) {
      // After an I/O failure SQLite may have rolled back the whole transaction by itself.
      if (!db.inTransaction) {
        abandon(err)
        onRolledBack()
      } else {
        rollbackTo.run()
        release.run()
      }
      throw health.failed(err)
    }
  }

  /** Rolls back every use case of the current group; those waiting for its commit fail (503 when the disk refused the write). */
  function abandon(cause: unknown): void {
    const p = pending
    pending = null
    if (db.inTransaction) rollback.run()
    undoAll(p)
    const failed = health.failed(cause)
    p?.reject(
      failed !== cause
        ? failed
        : new Error('the group commit was abandoned: a use case failed after it had written'),
    )
  }

  /**
   * A use case in two phases, without a savepoint: `decide` reads and checks, and may refuse by
   * throwing, having written nothing; `record` writes what was decided. A savepoint copies every
   * page its use case then touches, a few percent of a charge; without one, a `record` that
   * fails can only be undone with the whole group, so it abandons the group commit.
   */
  function transactDecided<D, R>(
    decide: () => D,
    record: (decision: D) => R,
    onAbandon: () => void,
  ): R {
    if (!groupCommit && !db.inTransaction) {
      // Alone, nothing else writes between a decision and its record: no need to decide inside.
      const decision = decide()
      return alone(() => record(decision), onAbandon)
    }
    if (!db.inTransaction) open()
    const decision = decide()
    try {
      return record(decision)
    } catch (err) {
      // Refused by its first insert: nothing of this use case was written, the group stays.
      if (err instanceof IdTaken) throw err
      abandon(err)
      onAbandon()
      throw health.failed(err)
    }
  }

  return {
    transact,
    transactDecided,
    flush,
    whenIdle,
    /**
     * Runs `fn` should the writes made so far be rolled back after all (their group commit
     * refused by a full disk, or abandoned): for what a use case changed outside the database.
     * Nothing pending (committed already, or in memory), it is dropped.
     */
    undoIfLost(fn: () => void): void {
      pending?.undo.push(fn)
    },
    /** The commit to wait for, or undefined when nothing is pending (saves a microtask). */
    pendingCommit: (): Promise<void> | undefined => pending?.promise,
  }
}
