// Group commit: use cases of one turn of the event loop share a commit. What must hold: a
// refused use case costs its neighbours nothing, and a use case that fails half-way through its
// writes leaves nothing of the group behind, and no one is told their write was kept.
import { describe, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { createStore } from '../../src/store/index.js'

// Group commit is for stores on a file: openStore(':memory:') commits each use case as it ends
// (deferred.ts), so these tests build a group-committing store over an in-memory database.
const groupCommittingStore = () => createStore(openDb(':memory:'))
const count = (store: ReturnType<typeof groupCommittingStore>) => store.db.prepare('SELECT count(*) FROM events').pluck().get()
const event = (id: string) => ({ id, type: 'test.event', at: 1, companyId: null, data: {} })

describe('group commit', () => {
  it('commits every use case of a turn together, once', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('a')))
    const commit = store.pendingCommit()
    expect(commit).toBeInstanceOf(Promise)
    store.txDecided(() => 'b', (id) => store.events.append(event(id)))
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
    expect(() => store.txDecided(() => { throw new Error('refused') }, () => store.events.append(event('never')))).toThrow('refused')
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['kept'])
  })

  it('a failure after writing abandons the whole group: nothing kept, everyone waiting told', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('neighbour')))
    const neighbourCommit = store.pendingCommit()!
    expect(() =>
      store.txDecided(() => null, () => {
        store.events.append(event('half'))
        throw new Error('disk on fire')
      }),
    ).toThrow('disk on fire')
    await expect(neighbourCommit).rejects.toThrow(/abandoned/)
    expect(count(store)).toBe(0)
    // The store goes on: the next use case opens a new group.
    store.tx(() => store.events.append(event('after')))
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['after'])
  })

  it('a plain use case that fails rolls back its own writes only', async () => {
    const store = groupCommittingStore()
    store.tx(() => store.events.append(event('kept')))
    expect(() => store.tx(() => { store.events.append(event('undone')); throw new Error('no') })).toThrow('no')
    await store.pendingCommit()
    expect(store.db.prepare('SELECT id FROM events').pluck().all()).toEqual(['kept'])
  })
})
