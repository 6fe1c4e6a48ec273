// A lone surrogate (`"\ud800"` in a JSON body) is no text UTF-8 can hold: the store kept its
// three bytes of WTF-8, and every later read (records, the dashboard, webhooks) showed three
// U+FFFD. The control plane writes each as one U+FFFD instead, as TextEncoder does, before it
// validates (docs/CONTRACT.md#bodies). Bytes that are not UTF-8 are decoded to U+FFFD already, so
// only an escape in the text can make one.
import { toWellFormed } from './python-dumps.js'

const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/

function wellFormedValue(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormed(value)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(wellFormedValue)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[toWellFormed(k)] = wellFormedValue(v)
  return out
}

/** `value`, parsed from `text`, with every lone surrogate replaced by U+FFFD. */
export const wellFormed = (text: string, value: unknown): unknown =>
  ESCAPED_SURROGATE.test(text) ? wellFormedValue(value) : value
