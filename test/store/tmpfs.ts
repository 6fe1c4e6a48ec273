// A real full disk for tests: a small tmpfs (needs root and a kernel that lets it mount one;
// tests skip without). A disk full this way refuses writes where SQLite meets it: at the group
// commit, where the WAL is written, after the use case has answered in memory.
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
