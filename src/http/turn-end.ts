// When the contract's answers are written. While calls arrive together (a parallel suite, a load
// test), the answers of a turn of the event loop are written together at its end, as the group
// commit already answers the writes (store/transactions.ts): answered one by one as each was
// handled, every answer woke the client on its own; written back to back, the client is woken
// once for all of them and sends its next calls together. A company read under 32 connections
// took ~20% less CPU and answered ~25% more calls a second. A caller alone (one call at a time,
// as most test suites call) is answered at once: waiting for the turn's end made its call ~10%
// slower (docs/PERFORMANCE.md).

/**
 * The promise an answer waits for: the end of the current turn while the last turn answered
 * more than one call; undefined (answer at once) otherwise.
 */
export type TurnEnd = () => Promise<void> | undefined

export function turnEnd(): TurnEnd {
  let answers = 0
  let together = false
  let resolve: (() => void) | null = null
  let current: Promise<void> | undefined
  // The check phase: after the poll phase has read and handled every request that was ready.
  const end = () => {
    together = answers > 1
    answers = 0
    const release = resolve
    resolve = null
    current = undefined
    release?.()
  }
  return () => {
    if (answers++ === 0) setImmediate(end)
    if (!together) return undefined
    current ??= new Promise<void>((r) => (resolve = r))
    return current
  }
}
