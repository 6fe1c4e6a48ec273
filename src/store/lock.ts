// One server per store file. Two servers on one DATABASE each answered some 500s (`database is
// locked`) and held caches the other's writes made stale (a deleted tenant still authenticated
// on the other). A server holds a write transaction open, for its life, on a lock file beside
// the store (`<DATABASE>.lock`, empty, never deleted): SQLite takes a POSIX lock on it, which the
// operating system releases when the process ends, killed or not, so no lock is ever stale. Who
// holds it is written in the store itself (`meta.server`), which a refused start reads to name
// the other process. The lock is the real file's, whatever symbolic links name it; a store with
// hard links is refused (lockPath). docs/decisions/2026-11-24-store-lock.md says why this and not
// locking_mode or a pid file.
import { closeSync, openSync, realpathSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import Database from 'better-sqlite3'
import type { Db } from './db.js'
import { insertInto, TABLES } from './tables.js'

export interface Holder {
  pid: number
  host: string
  since: string
}

/** The store is another server's: the message names the file and, when it could be read, the process. */
export class StoreInUse extends Error {
  constructor(
    readonly path: string,
    readonly holder: Holder | undefined,
  ) {
    const who = holder
      ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}`
      : 'a process that did not say who it is'
    super(
      `the store ${path} is in use by another pix-sandbox server (${who}). Stop it first, or set DATABASE to another file`,
    )
  }
}

export interface StoreLock {
  /** Records this process as the holder, in the store's own `meta`. */
  claim(db: Db): void
  release(): void
}

/** The store's file has another name, a hard link: the lock (and SQLite's -wal file) would be per name. */
export class StoreLinked extends Error {
  constructor(
    readonly path: string,
    links: number,
  ) {
    super(
      `the store ${path} has ${links - 1} other name(s) (hard links to the same file): a server on each name would take its own lock and keep its own -wal file, ` +
        'which corrupts a SQLite database. Remove the other names (a symbolic link is fine), or copy the file',
    )
  }
}

/**
 * Where the store's lock is: beside the file the path names, whatever symbolic links lead to
 * it. Keyed on the path as written, a symlink to the store (or a folder of it under two names)
 * let a second server take a lock of its own on the same file. The file is created first (empty,
 * as SQLite would), so that the path can be resolved: a symlink to a store not made yet leads
 * to the same file as its target's name.
 */
function lockPath(path: string): string {
  closeSync(openSync(path, 'a'))
  const links = statSync(path).nlink
  if (links > 1) throw new StoreLinked(path, links)
  return `${realpathSync(path)}.lock`
}

/** Takes the store's lock, or throws StoreInUse (no waiting) or StoreLinked at once. */
export function lockStore(path: string): StoreLock {
  const lock = new Database(lockPath(path), { timeout: 0 })
  try {
    lock.exec('BEGIN IMMEDIATE')
  } catch (err) {
    lock.close()
    if ((err as { code?: string }).code === 'SQLITE_BUSY')
      throw new StoreInUse(path, holderOf(path))
    throw err
  }
  return {
    claim(db) {
      const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
      insertInto(db, TABLES.meta, { onConflict: ['key'] }).run({
        key: 'server',
        value: JSON.stringify(holder),
      })
    },
    release() {
      if (lock.open) lock.close() // closing ends the transaction, and with it the lock
    },
  }
}

/** Who holds the store, as it wrote in it; undefined when that cannot be read. */
function holderOf(path: string): Holder | undefined {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 1000 })
    try {
      const value = db.prepare("SELECT value FROM meta WHERE key = 'server'").pluck().get() as
        | string
        | undefined
      return value === undefined ? undefined : (JSON.parse(value) as Holder)
    } finally {
      db.close()
    }
  } catch {
    return undefined
  }
}
