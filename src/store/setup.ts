// What a scenario sets up besides identities: settings, rules, the key directory and a few
// meta values. Settings and rules are read on every request, and the key directory on every
// transfer, so they are cached in memory and the cache is replaced on every write (this process
// is the store's only writer).
import type { PixKeyEntry, PixType, Rules, Settings } from '../domain/types.js'
import { DEFAULT_SETTINGS } from '../scenarios/settings.js'
import { keepsCache } from './caches.js'
import type { Db } from './db.js'
import { insertInto, TABLES, type RowOf } from './tables.js'

const { meta: META, pix_keys: PIX_KEYS, rules: RULES } = TABLES
/** Key lookups kept at most; past it the cache starts over. */
const KEYS_KEPT = 1000

export function setupStore(db: Db) {
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck()
  const putMeta = insertInto(db, META, { onConflict: ['key'] })
  const rulesStmt = db.prepare<[], RowOf<typeof RULES>>(
    `SELECT ${RULES.select()} FROM rules ORDER BY seq`,
  )
  const addRuleStmt = insertInto(db, RULES, { defaults: ['seq'] })
  const keyStmt = db.prepare<[string], RowOf<typeof PIX_KEYS>>(
    `SELECT ${PIX_KEYS.select()} FROM pix_keys WHERE key = ?`,
  )
  const putKeyStmt = insertInto(db, PIX_KEYS, { onConflict: ['key'] })

  const meta = {
    get: <T>(key: string): T | undefined => {
      const v = getMeta.get(key) as string | undefined
      return v === undefined ? undefined : (JSON.parse(v) as T)
    },
    set: (key: string, value: unknown): void =>
      void putMeta.run({ key, value: JSON.stringify(value) }),
  }

  const loadRules = (): Rules => {
    const rules: Rules = { charges: [], transfers: [] }
    for (const r of rulesStmt.all()) {
      ;(r.kind === 'charge' ? rules.charges : rules.transfers).push(JSON.parse(r.definition))
    }
    return rules
  }

  let settings: Settings = { ...DEFAULT_SETTINGS, ...meta.get<Partial<Settings>>('settings') }
  let rules = loadRules()
  const reload = (): void => {
    settings = { ...DEFAULT_SETTINGS, ...meta.get<Partial<Settings>>('settings') }
    rules = loadRules()
  }
  keepsCache(db, reload)
  // The key directory as every transfer reads it (a row, or null for a key it does not hold):
  // the keys a suite sends are few, read again and again; what a client sends is bounded here.
  const keys = new Map<string, PixKeyEntry | null>()
  keepsCache(db, () => keys.clear())

  return {
    meta,
    settings: () => settings,
    setSettings(next: Settings): void {
      meta.set('settings', next)
      settings = next
    },
    rules: () => rules,
    appendRules(add: Rules): void {
      for (const r of add.charges)
        addRuleStmt.run({ kind: 'charge', definition: JSON.stringify(r) })
      for (const r of add.transfers)
        addRuleStmt.run({ kind: 'transfer', definition: JSON.stringify(r) })
      rules = {
        charges: [...rules.charges, ...add.charges],
        transfers: [...rules.transfers, ...add.transfers],
      }
    },
    pixKey(key: string): PixKeyEntry | undefined {
      let entry = keys.get(key)
      if (entry === undefined) {
        const r = keyStmt.get(key)
        entry = r
          ? { key: r.key, type: r.type as PixType, active: r.active === 1, ownerName: r.owner_name }
          : null
        if (keys.size >= KEYS_KEPT) keys.clear()
        keys.set(key, entry)
      }
      return entry ?? undefined
    },
    putPixKey(k: PixKeyEntry): void {
      putKeyStmt.run({
        key: k.key,
        type: k.type,
        active: k.active ? 1 : 0,
        owner_name: k.ownerName,
      })
      keys.delete(k.key)
    },
  }
}

export type SetupStore = ReturnType<typeof setupStore>
