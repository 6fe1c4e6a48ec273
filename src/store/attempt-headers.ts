// The headers a delivery attempt sent, as the store keeps them: bounded JSON text.

/** Characters of an attempt's headers as stored (the column's CHECK says the same). */
export const MAX_HEADERS_TEXT = 4096
const MAX_HEADER_VALUE = 1024

/**
 * The headers as JSON, within MAX_HEADERS_TEXT: the worker makes them (a few hundred
 * characters), but a long user agent or a future header must not grow every attempt's row, so
 * a long value is cut (ending in …) and headers past the bound are left out.
 */
export function headersText(headers: Record<string, string>): string {
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    kept[name.slice(0, 100)] =
      value.length > MAX_HEADER_VALUE ? value.slice(0, MAX_HEADER_VALUE) + '…' : value
    if (JSON.stringify(kept).length > MAX_HEADERS_TEXT) {
      delete kept[name.slice(0, 100)]
      break
    }
  }
  return JSON.stringify(kept)
}
