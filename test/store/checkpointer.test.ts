// The WAL must not grow without end while writes never stop (a sandbox in a long CI run).
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { restartWal, startCheckpointer } from '../../src/store/checkpointer.js'
import { openDb } from '../../src/store/db.js'
import { createStore } from '../../src/store/index.js'
import { eventually } from '../hang.js'

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

const MIB = 1024 * 1024

/**
 * Group commits back to back until `rounds` restarts have been measured, from the second restart
 * on (the worker is a thread: on a loaded machine it takes seconds to start, so the commits wait
 * for its first restart instead of racing it). Returns the largest WAL seen, and its size right
 * after each commit that followed a restart: a restart keeps the file and overwrites it, and that
 * first commit cuts it back to `journal_size_limit`. A WAL past 64 MiB ends the writes, so that a
 * checkpointer that never restarts fails the test instead of filling the disk.
 */
async function writeWithoutPause(file: string, restartFrames: number, rounds: number) {
  const store = createStore(openDb(file))
  let restarts = 0
  let measuring = false
  // Set by a restart, which runs right after a commit: the next batch's commit is the first after it.
  let restartedSinceLastBatch = false
  const onFull = (done: () => void) =>
    store.whenIdle(() => {
      restartWal(store.db)
      restartedSinceLastBatch = true
      if (++restarts === 2) measuring = true
      done()
    })
  const checkpointer = startCheckpointer(store.db, file, onFull, 20, restartFrames)
  const limit = store.db.pragma('journal_size_limit', { simple: true }) as number
  let largest = 0
  const afterRestarts: number[] = []
  let n = 0
  const batch = async () => {
    for (let i = 0; i < 20; i++)
      store.tx(() =>
        store.events.append({
          id: `e${n++}`,
          type: 'test.event',
          at: n,
          companyId: null,
          data: { n, pad: 'x'.repeat(200) },
        }),
      )
    await store.pendingCommit()
  }
  try {
    while (walSize(file) < restartFrames * 4096) await batch()
    await eventually(() => restarts > 0, 'the checkpointer never asked for a restart')
    while (afterRestarts.length < rounds && walSize(file) < 64 * MIB) {
      const firstAfterRestart = restartedSinceLastBatch
      restartedSinceLastBatch = false
      await batch()
      if (!measuring) continue
      largest = Math.max(largest, walSize(file))
      if (firstAfterRestart) afterRestarts.push(walSize(file))
    }
    largest = Math.max(largest, walSize(file))
  } finally {
    await checkpointer.stop()
    await store.close()
  }
  return { largest, afterRestarts, limit }
}

it('keeps the WAL bounded under writes that never pause', async () => {
  // 100 frames of 4 KiB between restarts. Without the restart the WAL reached 200 MB in 1.5 s;
  // with it, the file holds at most what was written between two restarts (a few MB, more on a
  // busy machine), and every commit after a restart cuts it back to the limit.
  const { largest, afterRestarts, limit } = await writeWithoutPause(join(dir, 'bounded.db'), 100, 3)
  expect(limit).toBeGreaterThan(0)
  expect(afterRestarts.length).toBe(3)
  for (const size of afterRestarts) expect(size).toBeLessThanOrEqual(limit)
  expect(largest).toBeLessThan(32 * MIB)
})

it('asks nothing of the main thread once stopped: its last pass asked for a restart after the store had closed (SIGTERM under load)', async () => {
  // Under load, the worker's last pass (on stop) found the WAL past the restart point and asked
  // for a restart; the main thread, whose connection had closed since, called restartWal on it,
  // and the uncaught TypeError ("The database connection is not open") made a SIGTERM exit 1.
  const file = join(dir, 'closing.db')
  const db = openDb(file)
  const asked: boolean[] = []
  let firstAsk!: () => void
  const asking = new Promise<void>((r) => (firstAsk = r))
  // Never says done: the worker waits, as it does while the main thread is busy with a group.
  const checkpointer = startCheckpointer(db, file, () => (asked.push(db.open), firstAsk()), 20, 100)
  db.exec('CREATE TABLE pad (x BLOB)')
  db.exec(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO pad SELECT randomblob(4000) FROM n',
  )
  await asking
  // Stopped, then closed at once, as the store's close() does.
  const stopped = checkpointer.stop()
  db.close()
  await stopped
  await new Promise((r) => setTimeout(r, 50))
  expect(asked).toEqual([true])
})
