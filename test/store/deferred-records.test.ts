// Records that follow their answer (store/deferred.ts): in memory, within `answering`, a decided
// use case answers its decision and writes at the end of the task. What must hold: nothing reads
// or decides before the writes it follows are made, a failed write is reported and leaves nothing
// behind, and outside `answering` (or on a file) nothing changes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../src/store/index.js'

const ids = (store: Store) => store.db.prepare('SELECT id FROM events ORDER BY seq').pluck().all()
const event = (id: string) => ({ id, type: 'test.event', at: 1, companyId: null, data: {} })
/** A decided use case that appends an event named after how many there are. */
const appendNext = (store: Store, name: string) =>
  store.txDecided(
    () => `${name}${ids(store).length}`,
    (id) => store.events.append(event(id)),
  )
const nextTask = () => new Promise((resolve) => setImmediate(resolve))

describe('records that follow their answer', () => {
  it('in memory, within answering, a decided use case answers first and writes before the next task', async () => {
    const store = openStore(':memory:')
    expect(store.answering(() => appendNext(store, 'a'))).toBe('a0')
    expect(ids(store)).toEqual([])
    await nextTask()
    expect(ids(store)).toEqual(['a0'])
  })

  it('the next use case decides only after the writes it follows', () => {
    const store = openStore(':memory:')
    const decisions = store.answering(() => [appendNext(store, 'a'), appendNext(store, 'b')])
    // The second decision counted the first one's write, as it would have without deferral.
    expect(decisions).toEqual(['a0', 'b1'])
    store.tx(() => undefined)
    expect(ids(store)).toEqual(['a0', 'b1'])
  })

  it('a handler reads the writes answered before it, even in the same task (pipelined requests)', () => {
    const store = openStore(':memory:')
    store.answering(() => appendNext(store, 'a'))
    // A plain read, no use case: the next handler's answering records what is queued first.
    expect(store.answering(() => ids(store))).toEqual(['a0'])
  })

  it('a write that fails is reported, leaves nothing behind, and the others are still made', async () => {
    const store = openStore(':memory:')
    const lost: unknown[] = []
    store.onLostRecord = (err) => lost.push(err)
    store.answering(() => {
      appendNext(store, 'a')
      store.txDecided(
        () => 'broken',
        (id) => {
          store.events.append(event(id))
          throw new Error('disk on fire')
        },
      )
      appendNext(store, 'c')
    })
    await nextTask()
    expect(lost).toEqual([new Error('disk on fire')])
    expect(ids(store)).toEqual(['a0', 'c1'])
  })

  it('outside answering, in memory, a use case writes at once', () => {
    const store = openStore(':memory:')
    expect(appendNext(store, 'a')).toBe('a0')
    expect(ids(store)).toEqual(['a0'])
  })

  it('closing the store makes the writes still waiting', async () => {
    const store = openStore(':memory:')
    let kept: unknown[] = []
    store.answering(() => appendNext(store, 'a'))
    const close = store.db.close.bind(store.db)
    store.db.close = () => ((kept = ids(store)), close())
    await store.close()
    expect(kept).toEqual(['a0'])
  })

  it('on a file, where answers wait for their commit, answering changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pix-deferred-'))
    const store = openStore(join(dir, 'sandbox.db'))
    try {
      store.answering(() => appendNext(store, 'a'))
      expect(ids(store)).toEqual(['a0'])
      expect(store.pendingCommit()).toBeInstanceOf(Promise)
    } finally {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
