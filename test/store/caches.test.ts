// What the store keeps in memory beside its database is forgotten with what it was read from:
// a group abandoned after its writes, or a wipe, leaves no cached value of them behind. Each
// repository registers its own cache (store/caches.ts); these check each one there is.
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../src/scenarios/settings.js'
import { openDb } from '../../src/store/db.js'
import { createStore } from '../../src/store/index.js'

const company = {
  id: 'co',
  name: 'Co',
  city: 'Recife',
  apiActive: true,
  createdAt: 1,
  updatedAt: 1,
}
const subscription = {
  id: 'wh',
  companyId: null,
  url: 'http://127.0.0.1:1/',
  events: ['charge.paid' as const],
  format: 'standard' as const,
  secret: 'whsec',
  chaos: null,
  disabledAt: null,
  disabledReason: null,
  createdAt: 1,
}
const charge = {
  id: 'tx',
  companyId: 'co',
  userId: 'u',
  amount: 100,
  description: null,
  qrCode: 'qr',
  qrCodeName: 'CO #1',
  locationId: 'loc',
  createdAt: 1,
  expiresAt: 2,
  autoPayAt: null,
  autoCancelAt: null,
}
const transfer = {
  id: 'tr',
  companyId: 'co',
  userId: 'u',
  amount: 100,
  description: null,
  pixKey: 'maria@example.com',
  pixType: 'EMAIL' as const,
  status: 'success' as const,
  message: 'ok',
  createdAt: 1,
  settleAt: null,
  finalStatus: null,
  finalMessage: null,
}

/** What each cache answers now. */
function cached(store: ReturnType<typeof createStore>) {
  return {
    settings: store.setup.settings().charge_ttl_seconds,
    rules: store.setup.rules().charges.length,
    companies: store.identity.companyCount(),
    nextSeq: store.charges.nextSeq(),
    nextTransferSeq: store.transfers.nextSeq(),
    subscriptions: store.webhooks.active().length,
    pixKey: store.setup.pixKey('maria@example.com')?.active ?? null,
  }
}

/** Writes, through the repositories, something each cache keeps. */
function writeEverything(store: ReturnType<typeof createStore>): void {
  store.setup.setSettings({ ...store.setup.settings(), charge_ttl_seconds: 60 })
  store.setup.appendRules({
    charges: [{ when: {}, then: { auto_pay_after_seconds: 1 } }],
    transfers: [],
  })
  store.identity.insertCompany(company)
  store.identity.insertUser({
    id: 'u',
    companyId: 'co',
    name: 'U',
    permissions: ['charge'],
    createdAt: 1,
  })
  store.charges.insert(charge, store.charges.nextSeq(), false)
  store.transfers.insert(transfer, store.transfers.nextSeq())
  store.webhooks.add(subscription)
  store.setup.putPixKey({ key: 'maria@example.com', type: 'EMAIL', active: true, ownerName: null })
}

const before = {
  settings: DEFAULT_SETTINGS.charge_ttl_seconds,
  rules: 0,
  companies: 0,
  nextSeq: 1,
  nextTransferSeq: 1,
  subscriptions: 0,
  pixKey: null,
}

describe("the store's caches", () => {
  it('follow the writes made through the repositories', () => {
    const store = createStore(openDb(':memory:'), { inMemory: true })
    expect(cached(store)).toEqual(before)
    store.tx(() => writeEverything(store))
    expect(cached(store)).toEqual({
      settings: 60,
      rules: 1,
      companies: 1,
      nextSeq: 2,
      nextTransferSeq: 2,
      subscriptions: 1,
      pixKey: true,
    })
    // A key put again (a scenario applied anew) is read as it now is.
    store.tx(() =>
      store.setup.putPixKey({
        key: 'maria@example.com',
        type: 'EMAIL',
        active: false,
        ownerName: null,
      }),
    )
    expect(store.setup.pixKey('maria@example.com')?.active).toBe(false)
  })

  it('are all forgotten with a group abandoned after its writes', () => {
    const store = createStore(openDb(':memory:'))
    cached(store)
    expect(() =>
      store.txDecided(
        () => null,
        () => {
          writeEverything(store)
          cached(store)
          throw new Error('a bug after the writes')
        },
      ),
    ).toThrow('a bug after the writes')
    expect(cached(store)).toEqual(before)
  })

  it('are all forgotten with a wipe', () => {
    const store = createStore(openDb(':memory:'), { inMemory: true })
    store.tx(() => writeEverything(store))
    cached(store)
    store.tx(() => store.wipe())
    // The next seqs go on from the highest given: no id the store gave comes back (keyed-rows.ts).
    expect(cached(store)).toEqual({ ...before, nextSeq: 2, nextTransferSeq: 2 })
  })
})
