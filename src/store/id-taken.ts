// A generated id that the store already holds. Ids are drawn so that this does not happen (long
// random parts, a seeded sequence per start: ids.ts), but a store can hold ids that came from
// elsewhere, and an insert that meets one must not end as a 500 nor abandon the group commit.
// Thrown by the first insert of a decided use case's record, so nothing of that use case has
// been written yet (SQLite undoes the failed statement alone): the store decides again, with
// new ids (store/index.ts).
import { AppError } from '../domain/errors.js'

export class IdTaken extends AppError {
  constructor(what: string) {
    // Answered 503, as every try draws new ids: the next call succeeds.
    super('unavailable', undefined, undefined)
    this.message = `${what}: the id drawn is already taken`
  }
}

const UNIQUE = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'])

/** An insert's failure as IdTaken when a unique key refused it; any other failure as it is. */
export const idTakenOr = (err: unknown, what: string): unknown =>
  UNIQUE.has((err as { code?: string })?.code ?? '') ? new IdTaken(what) : err
