// How the dashboard writes values for people: money in reais, times in the scenario's zone.

/** Cents as Brazilian reais: 1000 -> "R$ 10,00", 123456789 -> "R$ 1.234.567,89". */
export function brl(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `${sign}R$ ${units},${String(abs % 100).padStart(2, '0')}`
}

const formatters = new Map<string, Intl.DateTimeFormat>()

/** An ISO instant as `2026-03-01 09:00:05` in `timeZone` (the scenario's). */
export function localTime(iso: string | null, timeZone: string): string {
  if (!iso) return ''
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    })
    formatters.set(timeZone, f)
  }
  return f.format(new Date(iso))
}

/** Microseconds since the epoch of an ISO instant with up to six decimals. */
export function isoToMicros(iso: string): number {
  const ms = Date.parse(iso)
  const frac = /\.(\d+)Z$/.exec(iso)?.[1] ?? ''
  return Math.floor(ms / 1000) * 1_000_000 + Number(frac.padEnd(6, '0').slice(0, 6))
}
