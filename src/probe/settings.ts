// What the differences imply: the scenario settings that make the sandbox answer like the
// target, and the differences no setting can express (what the sandbox should learn next).
import type { Scenario } from '../scenarios/schema.js'
import { zoneFor } from './zones.js'
import type { Observation, Row, SettingName } from './types.js'

export interface Implied {
  settings: Partial<Record<SettingName, string | number | boolean>>
  /** Differing rows a setting closes, by id. */
  covered: Set<string>
  /** Differing rows no setting can close. */
  learnNext: Row[]
}

const observed = (a: Row['target']): Observation | undefined =>
  'observed' in a ? a.observed : undefined

export function impliedSettings(rows: Row[], inForce: Scenario['settings'], now: number): Implied {
  const settings: Implied['settings'] = {}
  const covered = new Set<string>()
  const differing = rows.filter((r) => r.verdict === 'differ')
  for (const row of differing) {
    const value = settingFor(row, inForce, now)
    if (value === undefined) continue
    settings[row.setting!] = value
    covered.add(row.id)
  }
  // The gap between expiration_date and Date is the TTL plus the offset: closed when they are.
  const gap = differing.find((r) => r.id === 'charges.expiration-gap')
  if (gap && (settings.charge_ttl_seconds !== undefined || settings.timezone !== undefined))
    covered.add(gap.id)
  return { settings, covered, learnNext: differing.filter((r) => !covered.has(r.id)) }
}

function settingFor(
  row: Row,
  inForce: Scenario['settings'],
  now: number,
): string | number | boolean | undefined {
  const mine = observed(row.sandbox)
  const theirs = observed(row.target)
  if (!row.setting || !mine || !theirs) return undefined
  switch (row.setting) {
    case 'validation_errors': {
      // The style is a setting; the same style with other texts is not.
      const style = theirs.style ?? (Array.isArray(theirs.detail) ? 'fastapi' : undefined)
      const myStyle = mine.style ?? (Array.isArray(mine.detail) ? 'fastapi' : undefined)
      return (style === 'simple' || style === 'fastapi') && style !== myStyle ? style : undefined
    }
    case 'charge_ttl_seconds':
      return typeof theirs.charge_ttl_seconds === 'number' && theirs.charge_ttl_seconds >= 1
        ? theirs.charge_ttl_seconds
        : undefined
    case 'timezone':
      return typeof theirs.utc_offset === 'string'
        ? zoneFor(theirs.utc_offset, inForce.timezone ?? 'America/Sao_Paulo', now)
        : undefined
    case 'strict_content_type':
      // FastAPI 0.132 and later do not read a body without Content-Type; 0.122-0.131 did.
      return theirs.body_read === 'not as JSON'
        ? true
        : theirs.body_read === 'as JSON'
          ? false
          : undefined
    case 'insufficient_balance':
      if (
        theirs.status === 200 &&
        theirs.transfer_status === 'failed' &&
        theirs.message === 'Insufficient balance'
      )
        return 'failed'
      if (theirs.status === 422 && theirs.detail === 'Insufficient balance') return 'reject'
      return undefined
  }
}
