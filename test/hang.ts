// How long a test waits before it calls a wait a hang. Not a measure of speed: on a machine
// shared with other CPU-heavy jobs, starting the CLI from the sources took 1-2 s idle, and 60-110 s
// at a load average of 47 on two cores, where three of them in a row passed 180 s. A test waits
// for the event it needs; this only bounds a wait for an event that never comes.
export const HANG_MS = 600_000

/**
 * Asks `probe` every `everyMs` until it answers something other than undefined, null or false,
 * and answers that. The only limit is a hang (HANG_MS): then it throws `what` (a function, to
 * describe the last state). For events a test cannot be told of, only read back.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  what: string | (() => string | Promise<string>),
  everyMs = 20,
): Promise<Exclude<T, undefined | null | false>> {
  for (const until = Date.now() + HANG_MS; ; ) {
    const got = await probe()
    if (got !== undefined && got !== null && got !== false)
      return got as Exclude<T, undefined | null | false>
    if (Date.now() > until)
      throw new Error(`hung: ${typeof what === 'string' ? what : await what()}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}
