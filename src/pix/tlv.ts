// EMV "tag-length-value" fields: two-digit id, two-digit length, value.
export type Tlv = Map<string, string>

export const field = (id: string, value: string): string =>
  id + (value.length < 10 ? '0' : '') + value.length + value

/** Parses a whole string of TLV fields; null if any field is malformed or overruns the input. */
export function parseTlv(s: string): { fields: Tlv; order: string[] } | null {
  const fields: Tlv = new Map()
  const order: string[] = []
  let at = 0
  while (at < s.length) {
    const id = s.slice(at, at + 2)
    const len = s.slice(at + 2, at + 4)
    if (!/^\d\d$/.test(id) || !/^\d\d$/.test(len)) return null
    const end = at + 4 + Number(len)
    if (end > s.length) return null
    fields.set(id, s.slice(at + 4, end))
    order.push(id)
    at = end
  }
  return { fields, order }
}
