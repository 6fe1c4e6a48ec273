// Runs a function in a transaction; nested calls become savepoints. better-sqlite3's
// `db.transaction(fn)` builds a new wrapper per call, which showed in profiles of the hot path;
// these statements are prepared once.
import type { Db } from './db.js'

export function transactions(db: Db) {
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  const savepoint = db.prepare('SAVEPOINT nested')
  const release = db.prepare('RELEASE nested')
  const rollbackTo = db.prepare('ROLLBACK TO nested')

  return function transact<T>(fn: () => T): T {
    const nested = db.inTransaction
    ;(nested ? savepoint : begin).run()
    try {
      const result = fn()
      ;(nested ? release : commit).run()
      return result
    } catch (err) {
      if (nested) {
        rollbackTo.run()
        release.run()
      } else if (db.inTransaction) rollback.run()
      throw err
    }
  }
}
