// Values that differ by nature (ids, times, hosts) are compared by their shape: what a client's
// parser or database column would notice, not the value itself.

const CLASSES: [RegExp, string][] = [
  [/[0-9]/, '0-9'],
  [/[A-Z]/, 'A-Z'],
  [/[a-z]/, 'a-z'],
]

/** `32 chars [0-9A-Za-z]`; a lower-case hex id reads `[0-9a-f]`. */
export function idShape(value: unknown): string {
  if (typeof value !== 'string') return `not a string (${typeOf(value)})`
  if (value === '') return 'empty'
  let classes = CLASSES.filter(([re]) => re.test(value)).map(([, name]) => name)
  if (/^[0-9a-f]+$/.test(value) && /[a-f]/.test(value)) classes = ['0-9', 'a-f']
  const others = [...new Set(value.replace(/[0-9A-Za-z]/g, ''))].sort().join('')
  return `${value.length} chars [${classes.join('')}${others}]`
}

/** `2026-03-01T12:30:45.123456Z` -> `dddd-dd-ddTdd:dd:dd.ddddddZ` (fraction digits and zone show). */
export function timestampShape(value: unknown): string {
  if (typeof value !== 'string') return `not a string (${typeOf(value)})`
  return value.replace(/[0-9]/g, 'd')
}

/** `Loja Exemplo Ltda #42` with merchant `Loja Exemplo Ltda` -> `<merchant name> #<n>`. */
export function nameShape(value: unknown, merchant: string | undefined): string {
  if (typeof value !== 'string') return `not a string (${typeOf(value)})`
  let rest = value
  let head = ''
  if (merchant && value.toLowerCase().startsWith(merchant.toLowerCase())) {
    head = '<merchant name>'
    rest = value.slice(merchant.length)
  }
  return (
    head + rest.replace(/[0-9]+/g, '<n>').replace(/[A-Za-z]{4,}/g, (w) => `<${w.length} letters>`)
  )
}

/** Text a BR Code field holds: its length limit and letter case, not its words. */
export function textShape(value: unknown, max: number): string {
  if (typeof value !== 'string') return 'absent'
  const ascii = /^[\x20-\x7E]*$/.test(value) ? 'ASCII' : 'not ASCII'
  const letters = value.replace(/[^A-Za-z]/g, '')
  const kase =
    letters === letters.toUpperCase()
      ? 'UPPER CASE'
      : letters === letters.toLowerCase()
        ? 'lower case'
        : 'Mixed Case'
  return `${ascii}, ${kase}, ${value.length <= max ? `<= ${max}` : `over ${max}`} chars`
}

/** The Location of a redirect with the target's own origin replaced, so two hosts compare. */
export function locationShape(value: string | undefined, base: string): string {
  if (value === undefined) return 'absent'
  const origin = new URL(base).origin
  if (value.startsWith(base)) return `<base URL>${value.slice(base.length)}`
  if (value.startsWith(origin)) return `<same origin>${value.slice(origin.length)}`
  if (/^https?:\/\//i.test(value)) {
    const url = URL.parse(value)
    return url ? `<other origin>${url.pathname}${url.search}` : value
  }
  return value
}

export const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)
