// The bytes of request bodies held while they arrive, across all requests (docs/SECURITY.md,
// "Slow clients"). The contract reads a body before it authenticates (its order of checks), so
// anyone can make the server hold one: 250 slow connections each trickling ~1 MiB took the RSS
// from 85 to 344 MB, never given back. A body that arrives with its headers is taken at once
// (body.ts) and costs nothing here; one still on its way is read through `readBounded`, which
// counts the bytes that have arrived, as they arrive, against budgets shared by the whole
// process (the memory it guards is the process's, however many sandboxes it runs).
//
// Only what has arrived counts: a Content-Length reserved before its bytes came let 32 sockets
// that sent headers alone hold the whole budget for 30 s, and every body sent after its headers
// (httpx and requests send them in two writes) was refused meanwhile. And callers who
// authenticate as nobody have a budget of their own: however much of it they hold, a company's
// body is counted against the companies' budget, where each company (and the admin) holds at most
// its share. Whose a body is comes from its credentials, checked without answering anything
// (body-owner.ts): the order of checks is unchanged. A body that would go over its budget is
// refused at once, a 503 asking to retry, and its connection closed: waiting would leave the slow
// clients' sockets and buffers held, which is what the budget is there to prevent.
import type { IncomingMessage } from 'node:http'

/** Bytes of bodies still arriving that callers without credentials hold together: 32 bodies of the largest size (1 MiB). */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024
/** The same for callers with credentials, all companies and the admin together. */
export const CALLERS_BUDGET_BYTES = 32 * 1024 * 1024
/** What one company (or the admin) may hold of the callers' budget. */
export const CALLER_SHARE_BYTES = 8 * 1024 * 1024

/** Whom a body is counted against: a key naming a company or the admin (body-owner.ts), or null for nobody. */
export type BodyOwner = string | null

let strangers = 0
let callers = 0
const byCaller = new Map<string, number>()

/** What the process holds now of bodies still arriving, whoever sent them (for tests and the docs' figures). */
export const heldBodyBytes = (): number => strangers + callers

/** Counts `n` more bytes against the owner's budgets; false, counting nothing, when they would go over. */
function take(owner: BodyOwner, n: number): boolean {
  if (owner === null) {
    if (strangers + n > BODY_BUDGET_BYTES) return false
    strangers += n
    return true
  }
  const mine = byCaller.get(owner) ?? 0
  if (callers + n > CALLERS_BUDGET_BYTES || mine + n > CALLER_SHARE_BYTES) return false
  callers += n
  byCaller.set(owner, mine + n)
  return true
}

function give(owner: BodyOwner, n: number): void {
  if (n === 0) return
  if (owner === null) {
    strangers -= n
    return
  }
  callers -= n
  const left = byCaller.get(owner)! - n
  if (left === 0) byCaller.delete(owner)
  else byCaller.set(owner, left)
}

export type Bounded = Buffer | 'too_large' | 'over_budget'

/**
 * Reads the rest of a body, at most `maxBytes` of it (a Content-Length, `declared`, over it is
 * refused before a byte is read), counting each chunk against `owner`'s budget as it arrives.
 */
export async function readBounded(
  incoming: IncomingMessage,
  maxBytes: number,
  declared: number | undefined,
  owner: () => BodyOwner | Promise<BodyOwner>,
): Promise<Bounded> {
  if (declared !== undefined && declared > maxBytes) return 'too_large'
  const who = await owner()
  const chunks: Buffer[] = []
  let counted = 0
  try {
    // Left undestroyed when refused: destroying the request would cut the socket before the answer.
    for await (const chunk of incoming.iterator({
      destroyOnReturn: false,
    }) as AsyncIterable<Buffer>) {
      if (counted + chunk.length > maxBytes) return 'too_large'
      if (!take(who, chunk.length)) return 'over_budget'
      counted += chunk.length
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, counted)
  } finally {
    give(who, counted)
  }
}
