// Reading what people type: query filters and form fields, blank meaning "not given". Numbers
// accept a decimal comma; whatever is not a number reaches the control plane as null, which
// refuses it with its own words.
import type { Context } from 'hono'

/** The named query parameters, blank ones left out. */
export function filters<K extends string>(
  c: Context,
  ...names: K[]
): Record<K, string | undefined> {
  return Object.fromEntries(names.map((n) => [n, c.req.query(n) || undefined])) as Record<
    K,
    string | undefined
  >
}

export const textField = (v: string | undefined) => (v?.trim() ? v.trim() : undefined)

export const numberField = (v: string | undefined) =>
  v?.trim() ? Number(v.trim().replace(',', '.')) : undefined

/**
 * An amount typed in reais, as people write it (`10`, `10,50`, `1.234,56`, `10.50`), in cents;
 * undefined when blank, null when it is not an amount of reais (at most two decimals).
 */
export function centsField(v: string | undefined): number | null | undefined {
  const t = v?.trim().replace(/^R\$\s*/, '')
  if (!t) return undefined
  let units: string
  let decimals = ''
  const comma = t.lastIndexOf(',')
  if (comma >= 0) {
    // Brazilian: dots group thousands, the comma marks the cents.
    units = t.slice(0, comma).replace(/\.(?=\d{3}(?:\.|$))/g, '')
    decimals = t.slice(comma + 1)
  } else if (/^\d{1,3}(?:\.\d{3})+$/.test(t)) {
    units = t.replace(/\./g, '')
  } else {
    const dot = t.indexOf('.')
    units = dot < 0 ? t : t.slice(0, dot)
    decimals = dot < 0 ? '' : t.slice(dot + 1)
  }
  if (!/^\d{1,13}$/.test(units) || !/^\d{0,2}$/.test(decimals)) return null
  return Number(units) * 100 + Number(decimals.padEnd(2, '0'))
}
