// Bounds on what a client can store in webhook subscriptions and on what the worker sends at
// once. Each is named in the 422 or the documentation that states it.

/** Characters of a subscription URL, as browsers accept. */
export const MAX_URL_LENGTH = 2048
/** Subscriptions per company; the admin's global subscriptions (no company) have their own 20. */
export const MAX_SUBSCRIPTIONS = 20
/** Characters of a given `whsec_` secret (a 64-byte key is 94). */
export const MAX_SECRET_LENGTH = 100

/**
 * Sends in flight at once. Per subscription: a receiver that hangs holds at most this many
 * sockets, and the rest of its queue waits its turn. Per company (the subscription's owner; the
 * admin's global subscriptions count as one more owner): twenty subscriptions to silent
 * receivers hold at most this many. Nothing is shared between owners, so one tenant's slow
 * receivers never hold back another tenant's deliveries.
 */
export const MAX_IN_FLIGHT_PER_SUBSCRIPTION = 5
export const MAX_IN_FLIGHT_PER_COMPANY = 20
