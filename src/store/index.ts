// The store: one SQLite database and the repositories over it. `tx` runs a use case as one
// synchronous transaction: all of it is written, or none of it.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { chargeStore } from './charges.js'
import { restartWal, startCheckpointer } from './checkpointer.js'
import { openDb, type Db } from './db.js'
import { transactions } from './transactions.js'
import { eventStore } from './events.js'
import { faultStore } from './faults.js'
import { forgetCaches } from './caches.js'
import { IdTaken } from './id-taken.js'
import { holdHighWater } from './keyed-rows.js'
import { outcomeStore } from './outcomes.js'
import { readinessStore } from './readiness.js'
import { directoryStore } from './directory.js'
import { identityStore } from './identity.js'
import { ledgerStore } from './ledger.js'
import { lockStore } from './lock.js'
import { setupStore } from './setup.js'
import type { TABLES } from './tables.js'
import { transferStore } from './transfers.js'
import { webhookStore } from './webhooks.js'
import { writeHealth, type WriteFailure } from './write-health.js'

// Children before parents, so foreign keys hold at every step; every table but `meta` (partly
// kept: wipe) and `schema_migrations` (test/store/tables.test.ts checks both).
export { StoreTooNew } from './db.js'

export const WIPE_ORDER: readonly (keyof typeof TABLES)[] = [
  'delivery_attempts',
  'deliveries',
  'webhooks',
  'faults',
  'outcomes',
  'events',
  'ledger_entries',
  'transfers',
  'charges',
  'credentials',
  'providers',
  'users',
  'companies',
  'pix_keys',
  'rules',
  'readiness',
]

/** Draws of a decided use case whose id was taken, before it answers 503. */
const ID_ATTEMPTS = 3

export interface StoreOptions {
  /** SEED: a new store's secret of the codes its ids carry comes from it (keyed-rows.ts). */
  seed?: string
  /**
   * The database is in memory: each use case commits as it ends (a commit writes no file, so
   * there is nothing for use cases to share). Its writes are made before its answer, as on a
   * file (docs/decisions/2026-11-27-no-answer-before-the-write.md).
   */
  inMemory?: boolean
}

/**
 * The store over `db`. What it writes as it opens (the ids' keys of a new store, rows an older
 * build wrote: keyed-rows.ts) is one transaction: each commit of its own grew the WAL.
 */
export function createStore(db: Db, options: StoreOptions = {}) {
  return db.transaction(() => storeOver(db, options))()
}

function storeOver(db: Db, { inMemory = false, seed }: StoreOptions) {
  const setup = setupStore(db)
  // Told once when writes start failing (a full disk) and once when they work again: the server logs it.
  const health = writeHealth((failure) => store.onWriteHealth(failure))
  const txs = transactions(db, {
    groupCommit: !inMemory,
    health,
    onRolledBack: () => store.afterRollback(),
  })
  let depth = 0
  let wipeStatements: { run(): unknown }[] | undefined
  const recorded = <D>(decision: D, record: (decision: D) => void): D => (
    record(decision), decision
  )
  /** A decided use case recorded now; decided again, with new ids, when its id was taken (id-taken.ts). */
  function decided<D>(decide: () => D, record: (decision: D) => void): D {
    depth++
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          // Caches may hold values of any use case of the abandoned group.
          return txs.transactDecided(
            decide,
            (decision) => recorded(decision, record),
            () => store.afterRollback(),
          )
        } catch (err) {
          if (!(err instanceof IdTaken) || attempt === ID_ATTEMPTS) throw err
        }
      }
    } finally {
      depth--
    }
  }
  const store = {
    db,
    identity: identityStore(db),
    directory: directoryStore(db),
    ledger: ledgerStore(db),
    events: eventStore(db),
    charges: chargeStore(db, seed),
    transfers: transferStore(db, seed),
    outcomes: outcomeStore(db),
    faults: faultStore(db),
    webhooks: webhookStore(db),
    readiness: readinessStore(db),
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
     * writes), without a savepoint: see transactions.ts. Answers the decision once `record` has
     * written it; nested in another use case, it runs in that one's savepoint like any other.
     */
    txDecided<D>(decide: () => D, record: (decision: D) => void): D {
      if (depth > 0) return store.tx(() => recorded(decide(), record))
      return decided(decide, record)
    },
    /** Why the store cannot write now (a full or failing disk), or null. */
    writeFailure: health.failure,
    onWriteHealth: (_failure: WriteFailure | null): void => undefined,
    /** After a rolled-back group commit: the caches may hold its values. */
    afterRollback(): void {
      forgetCaches(db)
    },
    /** Runs `fn` outside any transaction: now, or right after the pending commit. */
    whenIdle: txs.whenIdle,
    undoIfLost: txs.undoIfLost,
    /** The commit of every write made so far, to await before acknowledging one; undefined when none is pending. */
    pendingCommit: txs.pendingCommit,
    /** True when no scenario has ever been loaded: the only state a scenario loads into at start. */
    isEmpty(): boolean {
      return (
        db.prepare('SELECT count(*) FROM companies').pluck().get() === 0 &&
        setup.meta.get('scenario') === undefined
      )
    },
    /**
     * Counts a start of this build's server (meta `starts`: a seeded sandbox draws from the seed's
     * next sequence at each, ids.ts), and so that its rows need no looking for ids without their
     * key at the next start (keyed-rows.ts). Returns the count before it.
     */
    countStart(): number {
      const starts = setup.meta.get<number>('starts') ?? 0
      setup.meta.set('starts', starts + 1)
      store.charges.checkedAt(starts + 1)
      store.transfers.checkedAt(starts + 1)
      return starts
    },
    /** Deletes all state (the signing key, the start count, the holder and the ids' keys excepted) in the caller's transaction. */
    wipe(): void {
      // Prepared once: preparing 16 statements was a tenth of a reset.
      // The start count stays (the ids drawn since the last start are not to be drawn again:
      // ids.ts), and so does the server holding the store (lock.ts). The ids' keys stay, and the
      // highest seq given is held first: no id comes back (keyed-rows.ts).
      holdHighWater(db)
      wipeStatements ??= [
        ...WIPE_ORDER.map((t) => `DELETE FROM ${t}`),
        "DELETE FROM meta WHERE key NOT IN ('signing_key', 'starts', 'server')",
      ].map((sql) => db.prepare(sql))
      for (const statement of wipeStatements) statement.run()
      forgetCaches(db)
    },
    /** Forgets (or re-reads) everything kept in memory: each repository registered its own (caches.ts). */
    refreshCaches(): void {
      forgetCaches(db)
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
  // Rows an older build wrote since this build's last start carry no key in their ids (issue 43).
  const starts = setup.meta.get<number>('starts') ?? 0
  store.charges.adoptUnkeyed(starts)
  store.transfers.adoptUnkeyed(starts)
  return store
}

export type Store = ReturnType<typeof storeOver>

/** `seed`: SEED, from which a new store's secret of the codes its ids carry comes (keyed-rows.ts). */
export function openStore(path: string, { seed }: { seed?: string } = {}): Store {
  if (path === ':memory:') return createStore(openDb(path), { inMemory: true, seed })
  mkdirSync(dirname(path), { recursive: true })
  const lock = lockStore(path)
  let db: Db | undefined
  let store: Store
  try {
    db = openDb(path)
    store = createStore(db, { seed })
    lock.claim(db)
  } catch (err) {
    if (db?.open) db.close()
    lock.release()
    throw err
  }
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
      // Released once no connection of this process holds the file: the next server may start.
      return close()
        .then(() => stopped)
        .then(() => lock.release())
    },
  })
}
