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
