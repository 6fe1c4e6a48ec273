// How the dashboard writes values for people: money in reais, times in the scenario's zone.
import { localDateTime } from '../domain/time.js'

/** Cents as Brazilian reais: 1000 -> "R$ 10,00", 123456789 -> "R$ 1.234.567,89". */
export function brl(cents: number): string {
  return `${cents < 0 ? '-' : ''}R$ ${reais(Math.abs(cents))}`
}

/** Cents as the reais a person types: 1000 -> "10,00" (what an amount field shows). */
export function reais(cents: number): string {
  const sign = cents < 0 ? '-' : ''
  const abs = Math.abs(cents)
  const units = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `${sign}${units},${String(abs % 100).padStart(2, '0')}`
}

/** An ISO instant as `2026-03-01 09:00:05` in `timeZone` (the scenario's), as the contract writes local times. */
export function localTime(iso: string | null, timeZone: string): string {
  return iso ? localDateTime(isoToMicros(iso), timeZone).replace('T', ' ') : ''
}

/** Microseconds since the epoch of an ISO instant with up to six decimals. */
export function isoToMicros(iso: string): number {
  const ms = Date.parse(iso)
  const frac = /\.(\d+)Z$/.exec(iso)?.[1] ?? ''
  return Math.floor(ms / 1000) * 1_000_000 + Number(frac.padEnd(6, '0').slice(0, 6))
}

/** Seconds as a person says them: 3661 -> "1 h 1 min 1 s", 86400 -> "1 day". */
export function duration(seconds: number): string {
  let left = Math.round(Math.abs(seconds))
  if (left === 0) return '0 s'
  const parts: string[] = []
  for (const [size, unit] of [
    [86400, 'day'],
    [3600, 'h'],
    [60, 'min'],
    [1, 's'],
  ] as const) {
    const n = Math.floor(left / size)
    left -= n * size
    if (n) parts.push(unit === 'day' ? `${n} day${n === 1 ? '' : 's'}` : `${n} ${unit}`)
  }
  return parts.join(' ')
}

/** A latency in milliseconds as it is worth reading: whole milliseconds, "< 1 ms" below one. */
export const millis = (ms: number | null | undefined): string =>
  ms === null || ms === undefined ? '?' : ms < 1 ? '< 1 ms' : `${Math.round(ms)} ms`

/** What an event of the log did, in a line: "charge 087H… (R$ 10,00) expired". */
export function eventLine(e: { type: string; data: Record<string, unknown> }): string {
  const d = e.data
  const id = typeof d.transaction_id === 'string' ? ` ${d.transaction_id}` : ''
  const amount = typeof d.amount === 'number' ? ` (${brl(d.amount)})` : ''
  const [what, verb] = e.type.split('.') as [string, string | undefined]
  if (what === 'balance' && typeof d.amount === 'number' && typeof d.balance === 'number')
    return `balance of ${String(d.user_id ?? 'a user')} ${d.amount < 0 ? '' : '+'}${brl(d.amount)} (${String(d.kind ?? 'change')}), now ${brl(d.balance)}`
  const done =
    e.type === 'charge.cancelled' && d.reason === 'expired' ? 'expired' : (verb ?? e.type)
  return `${what}${id}${amount} ${done}`
}
