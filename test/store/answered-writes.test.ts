// No answer is given for a write that is not recorded, in memory as on a file: a decided use
// case (decide, then only write: store/transactions.ts) has made its writes when it returns its
// decision, and a write that fails is thrown to its caller, which answers an error, never the
// decision (issue 43: in memory the writes used to follow the answer, and a failing one was only
// logged after a 200).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore, type Store } from '../../src/store/index.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-answered-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const ids = (store: Store) => store.db.prepare('SELECT id FROM events ORDER BY seq').pluck().all()
const event = (id: string) => ({ id, type: 'test.event', at: 1, companyId: null, data: {} })
/** A decided use case that appends an event named after how many there are. */
const appendNext = (store: Store, name: string) =>
  store.txDecided(
    () => `${name}${ids(store).length}`,
    (id) => store.events.append(event(id)),
  )
/** A decided use case whose record writes, then fails. */
const failing = (store: Store) =>
  store.txDecided(
    () => 'broken',
    (id) => {
      store.events.append(event(id))
      throw new Error('disk on fire')
    },
  )

describe.each(['memory', 'file'])('a decided use case, on a %s store', (kind) => {
  const open = () => openStore(kind === 'memory' ? ':memory:' : join(dir, 'sandbox.db'))

  it('has made its writes when it returns its decision', async () => {
    const store = open()
    try {
      expect(appendNext(store, 'a')).toBe('a0')
      expect(ids(store)).toEqual(['a0'])
      expect(appendNext(store, 'b')).toBe('b1')
    } finally {
      await store.close()
    }
  })

  it('whose write fails throws, leaves nothing of it, and the store goes on', async () => {
    const store = open()
    try {
      appendNext(store, 'a')
      await store.pendingCommit()
      expect(() => failing(store)).toThrow('disk on fire')
      expect(ids(store)).toEqual(['a0'])
      expect(appendNext(store, 'c')).toBe('c1')
      await store.pendingCommit()
      expect(ids(store)).toEqual(['a0', 'c1'])
    } finally {
      await store.close()
    }
  })
})
