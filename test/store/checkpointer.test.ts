// The WAL must not grow without end while writes never stop (a sandbox in a long CI run).
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { startCheckpointer, truncateWal } from '../../src/store/checkpointer.js'
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

/** Group commits back to back for `ms`; the largest WAL seen in the second half. */
async function writeWithoutPause(file: string, restartFrames: number, ms: number): Promise<number> {
  const store = createStore(openDb(file))
  const checkpointer = startCheckpointer(store.db, file, () => store.whenIdle(() => truncateWal(store.db)), 20, restartFrames)
  const started = Date.now()
  let largest = 0
  let n = 0
  try {
    while (Date.now() - started < ms) {
      for (let i = 0; i < 20; i++) store.tx(() => store.events.append({ id: `e${n++}`, type: 'test.event', at: n, companyId: null, data: { n, pad: 'x'.repeat(200) } }))
      await store.pendingCommit()
      if (Date.now() - started > ms / 2) largest = Math.max(largest, walSize(file))
    }
  } finally {
    await checkpointer.stop()
    store.close()
  }
  return largest
}

it('keeps the WAL bounded under writes that never pause', async () => {
  // 100 frames of 4 KiB between restarts: the WAL stays within a few times that.
  const bounded = await writeWithoutPause(join(dir, 'bounded.db'), 100, 1500)
  expect(bounded).toBeLessThan(8 * 1024 * 1024)
}, 20_000)
