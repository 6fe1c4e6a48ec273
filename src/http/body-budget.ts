// The bytes of request bodies held while they arrive, across all requests (docs/SECURITY.md,
// "Slow clients"). The contract reads a body before it authenticates (its order of checks), so
// anyone can make the server hold one: 250 slow connections each trickling ~1 MiB took the RSS
// from 85 to 344 MB, never given back. A body that arrives with its headers is taken at once
// (body.ts) and costs nothing here; one still on its way is read through `readBounded`, which
// counts its bytes against a budget shared by the whole process (the memory it guards is the
// process's, however many sandboxes it runs): its Content-Length as soon as it is read, or what
// has arrived of a chunked one. A body that would go over the budget is refused at once, before
// it is read, a 503 asking to retry, and its connection closed: waiting would leave the slow
// clients' sockets and buffers held, which is what the budget is there to prevent.
import type { IncomingMessage } from 'node:http'

/** Bytes of bodies still arriving that the process holds at once: 32 bodies of the largest size (1 MiB). */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024

let held = 0

/** What the process holds now of bodies still arriving (for tests and the docs' figures). */
export const heldBodyBytes = (): number => held

export type Bounded = Buffer | 'too_large' | 'over_budget'

/**
 * Reads the rest of a body, at most `maxBytes` of it, counting what it holds against the budget:
 * with a Content-Length (`declared`), all of it before reading a byte, so that a body the budget
 * cannot hold is refused before it is read; chunked, as it arrives.
 */
export async function readBounded(
  incoming: IncomingMessage,
  maxBytes: number,
  declared?: number,
  budget = BODY_BUDGET_BYTES,
): Promise<Bounded> {
  if (declared !== undefined) {
    if (declared > maxBytes) return 'too_large'
    if (held + declared > budget) return 'over_budget'
  }
  let counted = declared ?? 0
  held += counted
  const chunks: Buffer[] = []
  let mine = 0
  try {
    // Left undestroyed when refused: destroying the request would cut the socket before the answer.
    for await (const chunk of incoming.iterator({
      destroyOnReturn: false,
    }) as AsyncIterable<Buffer>) {
      mine += chunk.length
      if (mine > maxBytes) return 'too_large'
      if (mine > counted) {
        held += mine - counted
        counted = mine
        if (held > budget) return 'over_budget'
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, mine)
  } finally {
    held -= counted
  }
}
