// The store: one SQLite database and the repositories over it. `tx` runs a use case as one
// synchronous transaction: all of it is written, or none of it.
import { chargeStore } from './charges.js'
import { restartWal, startCheckpointer } from './checkpointer.js'
import { openDb, type Db } from './db.js'
import { transactions } from './transactions.js'
import { eventStore } from './events.js'
import { faultStore } from './faults.js'
import { outcomeStore } from './outcomes.js'
import { directoryStore } from './directory.js'
import { identityStore } from './identity.js'
import { ledgerStore } from './ledger.js'
import { setupStore } from './setup.js'
import { transferStore } from './transfers.js'
import { webhookStore } from './webhooks.js'

// Children before parents, so foreign keys hold at every step.
const WIPE_ORDER = [
  'delivery_attempts', 'deliveries', 'webhooks', 'faults', 'outcomes', 'events', 'ledger_entries', 'transfers', 'charges',
  'credentials', 'providers', 'users', 'companies', 'pix_keys', 'rules',
]

export function createStore(db: Db) {
  const setup = setupStore(db)
  const txs = transactions(db)
  let depth = 0
  let wipeStatements: { run(): unknown }[] | undefined
  const store = {
    db,
    identity: identityStore(db),
    directory: directoryStore(db),
    ledger: ledgerStore(db),
    events: eventStore(db),
    charges: chargeStore(db),
    transfers: transferStore(db),
    outcomes: outcomeStore(db),
    faults: faultStore(db),
    webhooks: webhookStore(db),
    setup,
    tx<T>(fn: () => T): T {
      const outermost = depth === 0
      depth++
      try {
        return txs.transact(fn)
      } catch (err) {
        // In-memory caches may hold values written by the rolled-back use case.
        if (outermost) store.refreshCaches()
        throw err
      } finally {
        depth--
      }
    },
    /**
     * A use case as `decide` (reads and checks; may throw, must not write) then `record` (only
     * writes), without a savepoint: see transactions.ts. Nested in another use case, it runs in
     * that one's savepoint like any other.
     */
    txDecided<D, R>(decide: () => D, record: (decision: D) => R): R {
      if (depth > 0) return store.tx(() => record(decide()))
      depth++
      try {
        // Caches may hold values of any use case of the abandoned group.
        return txs.transactDecided(decide, record, () => store.refreshCaches())
      } finally {
        depth--
      }
    },
    /** Runs `fn` outside any transaction: now, or right after the pending commit. */
    whenIdle: txs.whenIdle,
    /** The commit of every write made so far, to await before acknowledging one; undefined when none is pending. */
    pendingCommit: txs.pendingCommit,
    /** True when no scenario has ever been loaded: the only state a scenario loads into at start. */
    isEmpty(): boolean {
      return db.prepare('SELECT count(*) FROM companies').pluck().get() === 0 && setup.meta.get('scenario') === undefined
    },
    /** Deletes all state (the signing key excepted) in the caller's transaction. */
    wipe(): void {
      // Prepared once: preparing 16 statements was a tenth of a reset.
      wipeStatements ??= [...WIPE_ORDER.map((t) => `DELETE FROM ${t}`), "DELETE FROM meta WHERE key <> 'signing_key'"].map((sql) => db.prepare(sql))
      for (const statement of wipeStatements) statement.run()
      store.identity.invalidate()
      store.charges.forgetSeq()
      setup.reload()
    },
    /** Re-reads every in-memory cache from the database. */
    refreshCaches(): void {
      setup.reload()
      store.charges.forgetSeq()
      store.outcomes.refresh()
      store.faults.refresh()
      store.webhooks.refresh()
    },
    /** Commits what is pending and closes; resolves once nothing holds the store's files (openStore). */
    close(): Promise<void> {
      if (db.open) {
        txs.flush()
        db.close()
      }
      return Promise.resolve()
    },
  }
  return store
}

export type Store = ReturnType<typeof createStore>

export function openStore(path: string): Store {
  const store = createStore(openDb(path))
  if (path === ':memory:') return store
  const checkpointer = startCheckpointer(store.db, path, (done) =>
    store.whenIdle(() => {
      try {
        restartWal(store.db)
      } finally {
        done()
      }
    }),
  )
  const close = store.close
  return Object.assign(store, {
    // The worker's connection closes after its last checkpoint: until then it may still write
    // the WAL, and a caller deleting the folder after close() found it not empty (a flaky test).
    close() {
      const stopped = checkpointer.stop()
      return close().then(() => stopped)
    },
  })
}
