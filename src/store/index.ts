// The store: one SQLite database and the repositories over it. `tx` runs a use case as one
// synchronous transaction: all of it is written, or none of it.
import { chargeStore } from './charges.js'
import { openDb, type Db } from './db.js'
import { eventStore } from './events.js'
import { identityStore } from './identity.js'
import { ledgerStore } from './ledger.js'
import { setupStore } from './setup.js'
import { transferStore } from './transfers.js'

export function createStore(db: Db) {
  const setup = setupStore(db)
  const store = {
    db,
    identity: identityStore(db),
    ledger: ledgerStore(db),
    events: eventStore(db),
    charges: chargeStore(db),
    transfers: transferStore(db),
    setup,
    tx<T>(fn: () => T): T {
      try {
        return db.transaction(fn)()
      } catch (err) {
        // In-memory caches may hold values written by the rolled-back transaction.
        if (!db.inTransaction) setup.reload()
        throw err
      }
    },
    /** True when no scenario has ever been loaded: the only state a scenario loads into at start. */
    isEmpty(): boolean {
      return db.prepare('SELECT count(*) FROM companies').pluck().get() === 0 && setup.meta.get('scenario') === undefined
    },
    close(): void {
      if (db.open) db.close()
    },
  }
  return store
}

export type Store = ReturnType<typeof createStore>

export function openStore(path: string): Store {
  return createStore(openDb(path))
}
