// Group commit: use cases of one turn of the event loop share a commit. What must hold: a
// refused use case costs its neighbours nothing, and a use case that fails half-way through its
// writes leaves nothing of the group behind, and no one is told their write was kept.
import { describe, expect, it } from 'vitest'
import { createManualClock } from '../../src/clock.js'
import { advanceClock, changeClock } from '../../src/operations/clock.js'
import type { Context } from '../../src/operations/context.js'
import { openDb } from '../../src/store/db.js'
import { createStore } from '../../src/store/index.js'

// Group commit is for stores on a file: openStore(':memory:') commits each use case as it ends
// (transactions.ts), so these tests build a group-committing store over an in-memory database.
const groupCommittingStore = () => createStore(openDb(':memory:'))
const count = (store: ReturnType<typeof groupCommittingStore>) =>
  store.db.prepare('SELECT count(*) FROM events').pluck().get()
const event = (id: string) => ({ id, type: 'test.event', at: 1, companyId: null, data: {} })

describe('group commit', () => {
  it('commits every use case of a turn together, once', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('a')))
    const commit = store.pendingCommit()
    expect(commit).toBeInstanceOf(Promise)
    store.txDecided(
      () => 'b',
      (id) => store.events.append(event(id)),
    )
    // The second use case joins the first one's commit rather than opening its own.
    expect(store.pendingCommit()).toBe(commit)
    expect(store.db.inTransaction).toBe(true)
    await commit
    expect(store.pendingCommit()).toBeUndefined()
    expect(count(store)).toBe(2)
  })

  it('a refusal while deciding leaves the other use cases of the group alone', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('kept')))
    expect(() =>
      store.txDecided(
        () => {
          throw new Error('refused')
        },
        () => store.events.append(event('never')),
      ),
    ).toThrow('refused')
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['kept'])
  })

  it('a failure after writing abandons the whole group: nothing kept, everyone waiting told', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('neighbour')))
    const neighbourCommit = store.pendingCommit()!
    expect(() =>
      store.txDecided(
        () => null,
        () => {
          store.events.append(event('half'))
          throw new Error('disk on fire')
        },
      ),
    ).toThrow('disk on fire')
    await expect(neighbourCommit).rejects.toThrow(/abandoned/)
    expect(count(store)).toBe(0)
    // The store goes on: the next use case opens a new group.
    store.tx(() => store.events.append(event('after')))
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['after'])
  })

  it('a lost group puts the clock back where it was before the group changed it', async () => {
    // The clock lives in memory and is saved in the store: a full disk refused its write at the
    // group commit, after the change, and the clock had moved all the same.
    const store = groupCommittingStore()
    const clock = createManualClock(1_000_000)
    const ctx = { store, clock } as unknown as Context
    advanceClock(ctx, 60)
    changeClock(ctx, 'freeze')
    expect(clock.state()).toEqual({ offsetUs: 60_000_000, frozenAtUs: 61_000_000 })
    const commit = store.pendingCommit()!
    expect(() =>
      store.txDecided(
        () => null,
        () => {
          throw new Error('disk on fire')
        },
      ),
    ).toThrow('disk on fire')
    await expect(commit).rejects.toThrow(/abandoned/)
    expect(clock.state()).toEqual({ offsetUs: 0, frozenAtUs: null })
    // A committed change stays.
    changeClock(ctx, 'freeze')
    await store.pendingCommit()
    expect(clock.state()).toEqual({ offsetUs: 0, frozenAtUs: 1_000_000 })
  })

  it('a plain use case that fails rolls back its own writes only', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('kept')))
    expect(() =>
      store.tx(() => {
        store.events.append(event('undone'))
        throw new Error('no')
      }),
    ).toThrow('no')
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['kept'])
  })
})
