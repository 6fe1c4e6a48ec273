// A UTC offset as text, and the time zone a scenario should name for an observed offset.

export function offsetText(seconds: number): string {
  const quarter = Math.round(seconds / 900) * 900
  const sign = quarter < 0 ? '-' : '+'
  const abs = Math.abs(quarter)
  return `${sign}${String(Math.floor(abs / 3600)).padStart(2, '0')}:${String((abs % 3600) / 60).padStart(2, '0')}`
}

/** The zone's offset from UTC at `ms`, as `+09:00`. */
export function zoneOffsetText(timeZone: string, ms: number): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(ms)
    .find((p) => p.type === 'timeZoneName')?.value
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(part ?? '')
  return m ? `${m[1]}:${m[2] ?? '00'}` : '+00:00'
}

/**
 * One observation gives an offset, not a zone: keep the zone in force when it matches, else a
 * fixed-offset `Etc/GMT±h` zone (POSIX signs are inverted), else the first zone that matches now.
 */
export function zoneFor(offset: string, inForce: string, ms: number): string | undefined {
  if (zoneOffsetText(inForce, ms) === offset) return inForce
  if (offset === '+00:00') return 'UTC'
  const [, sign, hours, minutes] = /^([+-])(\d{2}):(\d{2})$/.exec(offset) ?? []
  if (!sign || Number(hours) > 14) return undefined
  if (minutes === '00') return `Etc/GMT${sign === '+' ? '-' : '+'}${Number(hours)}`
  return Intl.supportedValuesOf('timeZone').find((z) => zoneOffsetText(z, ms) === offset)
}
