// Formatting of virtual instants (epoch microseconds) for the contract's fields.
import type { Micros } from '../clock.js'

export const SECOND_US = 1_000_000

export const floorToSecond = (us: Micros): Micros => Math.floor(us / SECOND_US) * SECOND_US

/**
 * `2026-03-01T12:30:45.123456Z`: ISO 8601 UTC with six fractional digits
 * (docs/CONTRACT.md#where-the-contract-is-silent: timestamps).
 */
export function isoMicros(us: Micros): string {
  const ms = Math.floor(us / 1000)
  const iso = new Date(ms).toISOString() // ...HH:MM:SS.mmmZ
  return `${iso.slice(0, -1)}${String(us - ms * 1000).padStart(3, '0')}Z`
}

/** `2026-03-01T12:30:45.123Z`: the BCB API Pix timestamp style. */
export const isoMillis = (us: Micros): string => new Date(Math.floor(us / 1000)).toISOString()

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

const QUARTER_HOUR_MS = 15 * 60_000
const offsets = new Map<string, { bucket: number; offsetMs: number }>()

/** The zone's UTC offset at `ms`. Zones change offset on quarter-hour boundaries, so it is cached per quarter hour. */
function offsetAt(ms: number, timeZone: string): number {
  const bucket = Math.floor(ms / QUARTER_HOUR_MS)
  const key = timeZone
  const hit = offsets.get(key)
  if (hit && hit.bucket === bucket) return hit.offsetMs
  const at = bucket * QUARTER_HOUR_MS
  const p: Record<string, string> = {}
  for (const part of formatterFor(timeZone).formatToParts(at)) p[part.type] = part.value
  const offsetMs = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - at
  offsets.set(key, { bucket, offsetMs })
  return offsetMs
}

// Charges made within one second share their expiration text: the last one is kept.
let lastLocal = { second: NaN, timeZone: '', text: '' }

/** `YYYY-MM-DDTHH:MM:SS` in `timeZone`, no zone, no fraction (the contract's expiration_date). */
export function localDateTime(us: Micros, timeZone: string): string {
  const second = Math.floor(us / SECOND_US)
  if (second === lastLocal.second && timeZone === lastLocal.timeZone) return lastLocal.text
  const ms = second * 1000
  const text = new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 19)
  lastLocal = { second, timeZone, text }
  return text
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone)
    return true
  } catch {
    return false
  }
}

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})$/i

/**
 * An ISO 8601 instant with its zone (`2026-03-01T12:00:00Z`, `...T09:00:00.250-03:00`) in epoch
 * microseconds; undefined for anything else, a date that does not exist (02-30) included.
 */
export function parseIsoMicros(text: string): Micros | undefined {
  const m = ISO_INSTANT.exec(text)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const d = new Date(ms)
  if (
    d.getUTCFullYear() !== year ||
    d.getUTCMonth() !== month - 1 ||
    d.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return undefined
  const zone = m[8]!.toUpperCase()
  const offsetMin =
    zone === 'Z'
      ? 0
      : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
  const fraction = Number((m[7] ?? '').padEnd(6, '0'))
  return (ms - offsetMin * 60_000) * 1000 + fraction
}
