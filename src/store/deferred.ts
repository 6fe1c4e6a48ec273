// Records that follow their answer. In memory nothing is durable, so an answer has nothing to
// wait for but the writes themselves; a decided use case (decide, then only write: see
// transactions.ts) can then answer from its decision and write right after. Right after means
// before the process reads anything else: the writes run at `process.nextTick`, once the task
// that answered has written its answer, and before any later use case decides (`settle`).
// A test suite's sequential call then pays for the decision only (docs/PERFORMANCE.md).

export interface DeferredRecords {
  /** True while `during` runs: decided use cases may queue their record. */
  readonly active: boolean
  /** Runs `fn` with deferral on; records it queues run at the end of the current task at the latest. */
  during<T>(fn: () => T): T
  /** Queues a record. */
  add(record: () => void): void
  /** Runs every queued record now, in order. */
  settle(): void
}

/** `onFailure`: a queued record threw (its use case has rolled it back); its answer was already given. */
export function deferredRecords(onFailure: (err: unknown) => void): DeferredRecords {
  let queue: (() => void)[] = []
  let depth = 0

  function settle(): void {
    while (queue.length > 0) {
      const batch = queue
      queue = []
      for (const record of batch) {
        try {
          record()
        } catch (err) {
          onFailure(err)
        }
      }
    }
  }

  return {
    get active() {
      return depth > 0
    },
    during<T>(fn: () => T): T {
      depth++
      try {
        return fn()
      } finally {
        depth--
      }
    },
    add(record) {
      if (queue.push(record) === 1) process.nextTick(settle)
    },
    settle,
  }
}
