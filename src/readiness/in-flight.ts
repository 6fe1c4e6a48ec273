// The contract calls that arrived and are not answered yet, so that no verdict is given while a
// call that may change it is still being processed (docs/READINESS.md#exec-any-suite-in-ci): a
// fault's delay holding one (a payout the client gave up on, whose retry was answered first), a
// write waiting for its commit. `exec` and `pix-sandbox readiness` wait for them, as long as the
// longest delay holding one, then say how many they gave up on. A counter per call, and a record
// per company only while a fault's delay holds one of its calls.

/** How long after a held call's delay its answer may still take (the write, the commit), and how long calls no delay holds get. */
export const ANSWER_MARGIN_MS = 1000

export interface Flying {
  /** Calls not answered yet. */
  calls: number
  /** Milliseconds until the longest delay holding one of them has passed (with the margin); 0 when none holds one. */
  waitMs: number
}

export function inFlight(nowMs: () => number) {
  let calls = 0
  /** performance.now() until which a delay holds one of the calls (margin included). */
  let heldUntil = 0
  /** By company: its calls a delay holds, and until when. */
  const held = new Map<string, { calls: number; until: number }>()
  let waiters: (() => void)[] = []

  return {
    arrived(): void {
      calls++
    },
    answered(): void {
      calls = Math.max(0, calls - 1)
      if (calls === 0 && waiters.length) {
        const woken = waiters
        waiters = []
        for (const wake of woken) wake()
      }
    },
    /** A fault's delay holds a call of `companyId` for `delayMs`; `released` once it is answered. */
    held(companyId: string, delayMs: number): void {
      const until = nowMs() + delayMs + ANSWER_MARGIN_MS
      heldUntil = Math.max(heldUntil, until)
      const h = held.get(companyId)
      if (h) {
        h.calls++
        h.until = Math.max(h.until, until)
      } else held.set(companyId, { calls: 1, until })
    },
    released(companyId: string): void {
      const h = held.get(companyId)
      if (h && --h.calls <= 0) held.delete(companyId)
    },
    /** What is in flight: every call (undefined), or the calls of one company a delay holds. */
    now(companyId?: string): Flying {
      const now = nowMs()
      if (companyId === undefined)
        return { calls, waitMs: calls ? Math.max(0, Math.ceil(heldUntil - now)) : 0 }
      const h = held.get(companyId)
      return h
        ? { calls: h.calls, waitMs: Math.max(0, Math.ceil(h.until - now)) }
        : { calls: 0, waitMs: 0 }
    },
    /**
     * Resolves once no call is in flight, or when the longest delay holding one has passed (or,
     * none held, ANSWER_MARGIN_MS has): with what is still in flight then.
     */
    settled(): Promise<Flying> {
      if (calls === 0) return Promise.resolve({ calls: 0, waitMs: 0 })
      const start = nowMs()
      return new Promise((resolve) => {
        let timer: NodeJS.Timeout | undefined
        const done = () => {
          clearTimeout(timer)
          resolve({ calls, waitMs: 0 })
        }
        waiters.push(done)
        // The deadline moves with delays that start meanwhile (a call still arriving).
        const check = () => {
          const left = Math.max(heldUntil, start + ANSWER_MARGIN_MS) - nowMs()
          if (left <= 0) {
            waiters = waiters.filter((w) => w !== done)
            return resolve({ calls, waitMs: 0 })
          }
          timer = setTimeout(check, Math.min(left, 250))
        }
        check()
      })
    },
  }
}

export type InFlight = ReturnType<typeof inFlight>
