// What a report shows of a finding or a receiver check, as readiness keeps it (entry.ts).
import type { Micros } from '../clock.js'

/** One redacted example of a finding: the call (or delivery) and what was seen in it. */
export interface Example {
  method: string
  path: string
  /** The company whose report holds it; null for the admin's report of calls that named none. */
  companyId: string | null
  /** Virtual time, and the wall-clock time beside it (the virtual clock may be hours ahead). */
  at: Micros
  wallAt: Micros
  seen: string
}

/** The newest receiver check of one receiver, as the report shows it: the checks that failed. */
export interface CheckSeen {
  url: string
  at: Micros
  wallAt: Micros
  passed: boolean
  failed: {
    id: string
    expected: string
    status: number | null
    error: string | null
    advice: string | null
  }[]
}

export interface Seen {
  count: number
  example: Example
}

/** Two counts of one finding (one may be missing): added up, the earlier example kept. */
export const both = (a: Seen | undefined, b: Seen | undefined): Seen | undefined =>
  a && b
    ? {
        count: a.count + b.count,
        example: b.example.wallAt < a.example.wallAt ? b.example : a.example,
      }
    : (a ?? b)
