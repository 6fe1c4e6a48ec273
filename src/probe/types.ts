// The probe's vocabulary: what a check sends, what came back, and the row it becomes.

/** Who the request claims to be; the header itself is built per side, so secrets never sit in a check. */
export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'client'; variant?: 'lowercase-scheme' | 'unpadded' }
  | { kind: 'wrong-secret' }
  | { kind: 'unknown-client' }
  | { kind: 'header'; value: string }

export interface ProbeRequest {
  method: string
  /** Relative to the base URL, or a full URL when `absolute`. */
  path: string
  auth: AuthSpec
  /** Absent with a body: the body is sent without a Content-Type. */
  contentType?: string
  body?: string
  absolute?: boolean
}

export interface Reply {
  status: number
  headers: Record<string, string>
  text: string
  json: unknown
  ms: number
}

export interface Failure {
  kind: 'timeout' | 'reset' | 'refused' | 'unreachable' | 'error'
  message: string
}

export interface Exchange {
  side: 'sandbox' | 'target'
  /** When it was sent, in ms since the epoch (the rate limit is visible here). */
  sent_at: number
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  reply?: Reply
  failure?: Failure
}

export type Observation = Record<string, unknown>

/** An answer is either something observed or the reason it could not be. */
export type Answer = { observed: Observation } | { unobservable: string }

export type SettingName =
  | 'validation_errors'
  | 'charge_ttl_seconds'
  | 'timezone'
  | 'insufficient_balance'
  | 'strict_content_type'

export type Group =
  | 'framework'
  | 'order'
  | 'auth'
  | 'validation'
  | 'company'
  | 'charges'
  | 'transfers'

export type Verdict = 'agree' | 'differ' | 'not observable'

export interface Row {
  id: string
  group: Group
  topic: string
  /** A curl command that re-sends it, credentials as shell variables. */
  sent: string
  sandbox: Answer
  target: Answer
  verdict: Verdict
  /** The scenario setting that can make the sandbox answer like the target here. */
  setting?: SettingName
  /** `yes`: it creates something on the target; `guarded`: refused by design, see the note. */
  changes?: 'yes' | 'guarded'
  note?: string
}

export type ExitCode = 0 | 1 | 2
