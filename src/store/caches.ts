// What the store keeps in memory beside its database (settings and rules, the companies' count,
// the newest charge's seq, the active subscriptions, whether anything is queued...). Each
// repository registers how to forget what it keeps as it is built, so that after a rollback or a
// wipe the store forgets all of it, a cache added later included: no list to keep up to date.
import type { Db } from './db.js'

const registered = new WeakMap<Db, (() => void)[]>()

/** Registers how to forget something kept in memory about `db`: re-read it, or drop it to be read when next asked. */
export function keepsCache(db: Db, forget: () => void): void {
  let list = registered.get(db)
  if (!list) registered.set(db, (list = []))
  list.push(forget)
}

/** Forgets everything kept in memory about `db`: its tables may no longer hold what was read. */
export function forgetCaches(db: Db): void {
  for (const forget of registered.get(db) ?? []) forget()
}
