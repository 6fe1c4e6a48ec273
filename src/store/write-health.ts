// Whether the store can write. A full disk (SQLITE_FULL) or a failing one (SQLITE_IOERR_*) made
// every write answer a generic 500 while health said ok. Now such a failure marks the store as
// failing (told once, through `onChange`), and is answered 503 `Service temporarily
// unavailable` with Retry-After: nothing of it was written, and the same call succeeds once
// there is room again. The first commit that succeeds afterwards marks the store well again, by
// itself. Reads go on all the while.
import { AppError } from '../domain/errors.js'

/** A write the file system refused: the disk is full or failing. */
export const isStorageFailure = (err: unknown): boolean => {
  const code = (err as { code?: unknown })?.code
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR'))
}

/** A failure that says the disk refused a write, raw or as told to callers: logged once, by the store. */
export const isUnwritable = (err: unknown): boolean =>
  err instanceof StoreUnavailable || isStorageFailure(err)

/** What a caller whose write the file system refused is told: 503, try again later. */
export class StoreUnavailable extends AppError {
  constructor(readonly reason: string) {
    super('unavailable')
    this.message = `the store cannot write: ${reason}`
  }
}

export interface WriteFailure {
  /** What SQLite said, e.g. `SQLITE_FULL: database or disk is full`. */
  reason: string
  /** When it began (real time, ISO 8601). */
  since: string
}

export function writeHealth(onChange: (failure: WriteFailure | null) => void) {
  let failure: WriteFailure | null = null
  return {
    failure: (): WriteFailure | null => failure,
    /** `err` as callers should see it: StoreUnavailable for a refused write (the first one is told), as it is otherwise. */
    failed(err: unknown): unknown {
      if (err instanceof StoreUnavailable || !isStorageFailure(err)) return err
      const reason = `${(err as { code: string }).code}: ${(err as Error).message}`
      if (!failure) {
        failure = { reason, since: new Date().toISOString() }
        onChange(failure)
      }
      return new StoreUnavailable(reason)
    },
    /** A commit went through. */
    succeeded(): void {
      if (failure) {
        failure = null
        onChange(null)
      }
    },
  }
}

export type WriteHealth = ReturnType<typeof writeHealth>
