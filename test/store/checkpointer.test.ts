// The WAL must not grow without end while writes never stop (a sandbox in a long CI run).
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { restartWal, startCheckpointer } from '../../src/store/checkpointer.js'
import { openDb } from '../../src/store/db.js'
import { createStore } from '../../src/store/index.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-wal-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const walSize = (file: string) => {
  try {
    return statSync(`${file}-wal`).size
  } catch {
    return 0
  }
}

/**
 * Group commits back to back; the largest WAL seen over `ms` of writing after the second
 * restart. Timed from there, not from the start: on a loaded machine the worker thread can take
 * a second to start, the WAL grows freely until it does, and the file keeps that size until the
 * first commit after the first restart cuts it back to `journal_size_limit`.
 */
async function writeWithoutPause(file: string, restartFrames: number, ms: number): Promise<number> {
  const store = createStore(openDb(file))
  let restarts = 0
  let measuredFrom: number | null = null
  const onFull = (done: () => void) =>
    store.whenIdle(() => {
      restartWal(store.db)
      if (++restarts === 2) measuredFrom = Date.now()
      done()
    })
  const checkpointer = startCheckpointer(store.db, file, onFull, 20, restartFrames)
  const started = Date.now()
  let largest = 0
  let n = 0
  try {
    while (measuredFrom === null ? Date.now() - started < 15_000 : Date.now() - measuredFrom < ms) {
      for (let i = 0; i < 20; i++) store.tx(() => store.events.append({ id: `e${n++}`, type: 'test.event', at: n, companyId: null, data: { n, pad: 'x'.repeat(200) } }))
      await store.pendingCommit()
      if (measuredFrom !== null) largest = Math.max(largest, walSize(file))
    }
  } finally {
    await checkpointer.stop()
    store.close()
  }
  if (measuredFrom === null) throw new Error('the checkpointer did not ask for two restarts in 15 s')
  return largest
}

it('keeps the WAL bounded under writes that never pause', async () => {
  // 100 frames of 4 KiB between restarts: the WAL stays within a few times that.
  const bounded = await writeWithoutPause(join(dir, 'bounded.db'), 100, 1500)
  expect(bounded).toBeLessThan(8 * 1024 * 1024)
}, 30_000)
