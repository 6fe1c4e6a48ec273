// When to try a failed delivery again: the scenario's `webhook_retry_seconds`, with jitter, or
// what the receiver asked for with Retry-After, clamped to the schedule's bounds. The schedule
// alone decides how many attempts there are: a receiver cannot buy more with its header.

/**
 * Seconds to wait after failed attempt `attempt` (1-based), or null when the schedule is spent
 * and the delivery fails. `jitter` is a number in [0, 1): up to 10% is added to the schedule.
 */
export function retryDelay(
  schedule: readonly number[],
  attempt: number,
  retryAfter: number | null,
  jitter: number,
): number | null {
  const planned = schedule[attempt - 1]
  if (planned === undefined) return null
  if (retryAfter === null) return planned * (1 + 0.1 * jitter)
  return Math.min(Math.max(retryAfter, Math.min(...schedule)), Math.max(...schedule))
}
