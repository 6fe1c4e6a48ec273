// A real full disk for tests: a small tmpfs (needs root and a kernel that lets it mount one;
// tests skip without). A disk full this way refuses writes where SQLite meets it: at the group
// commit, where the WAL is written, after the use case has answered in memory. Only where the WAL
// must grow, though: SQLite writes a WAL it has restarted over the space the file already holds,
// so a test empties it (`emptyWal`) before it fills the disk.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const mountable = (() => {
  try {
    const probe = mkdtempSync(join(tmpdir(), 'pix-sandbox-mount-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' })
    execFileSync('umount', [probe], { stdio: 'ignore' })
    rmSync(probe, { recursive: true })
    return true
  } catch {
    return false
  }
})()

export interface SmallDisk {
  dir: string
  /** Fills what is left, a file at a time. */
  fill(): void
  /** Deletes what `fill` wrote. */
  makeRoom(): void
}

/** Runs `fn` on a 4 MB tmpfs mounted in `parent`, unmounted after. */
export async function onSmallDisk<T>(
  parent: string,
  fn: (disk: SmallDisk) => Promise<T>,
): Promise<T> {
  const dir = join(parent, 'disk')
  mkdirSync(dir)
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir])
  let n = 0
  const disk: SmallDisk = {
    dir,
    fill() {
      try {
        for (;;) writeFileSync(join(dir, `filler-${n++}`), Buffer.alloc(64 * 1024))
      } catch {
        // full
      }
    },
    makeRoom() {
      for (let i = 0; i < n; i++) rmSync(join(dir, `filler-${i}`), { force: true })
    },
  }
  try {
    return await fn(disk)
  } finally {
    execFileSync('umount', ['-l', dir])
  }
}

/**
 * Copies the WAL into the database and truncates it, so that the next commit must grow the file.
 * Unemptied, a commit after `fill()` was written over the WAL's old frames and answered 200 (9
 * runs of 12 of test/store/full-disk-control.test.ts; here, 3 of 3). It waits for the store's
 * open transaction to commit (the group commit's, ended on a later turn) and for the checkpoint
 * worker to let go of the WAL.
 */
export async function emptyWal(db: {
  inTransaction: boolean
  pragma(source: string): unknown
}): Promise<void> {
  for (;;) {
    if (!db.inTransaction) {
      try {
        const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[]
        if (result?.busy === 0 && result.log === 0) return
      } catch (err) {
        // A statement of this connection still reading: SQLITE_LOCKED, until it ends.
        if ((err as { code?: string }).code !== 'SQLITE_LOCKED') throw err
      }
    }
    await new Promise((r) => setImmediate(r))
  }
}
