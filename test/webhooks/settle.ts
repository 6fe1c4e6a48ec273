// Waiting for the webhook worker. The receiver holding a message is not enough: the worker records
// the answer a moment later, and `clock/advance` awaits only the sends it starts itself, so a read
// or an advance made in between sees an attempt still under way.
import { eventually } from '../hang.js'
import type { TestSandbox } from '../harness.js'

export interface DeliveryRead {
  status: string
  next_attempt_at: string | null
  attempts: { chaos: string | null; [field: string]: unknown }[]
  [field: string]: unknown
}

async function poll(
  sb: TestSandbox,
  done: (all: DeliveryRead[]) => boolean,
  what: (all: DeliveryRead[]) => string,
): Promise<any[]> {
  let all: DeliveryRead[] = []
  return eventually(
    async () => {
      all = (await sb.admin('GET', '/webhooks/deliveries?limit=100')).body.data as DeliveryRead[]
      return done(all) && all
    },
    () => what(all),
    10,
  )
}

const attempts = (all: DeliveryRead[]) => all.reduce((sum, d) => sum + d.attempts.length, 0)

/** Waits until the sandbox has recorded `n` attempts in all; resolves with the deliveries, newest first. */
export const recorded = (sb: TestSandbox, n: number) =>
  poll(
    sb,
    (all) => attempts(all) >= n,
    (all) => `expected ${n} recorded attempts, got ${attempts(all)}`,
  )

/** Waits until every delivery due now has been tried: delivered, or waiting for a later retry. */
export async function settled(sb: TestSandbox): Promise<DeliveryRead[]> {
  const { now } = (await sb.admin('GET', '/clock')).body as { now: string }
  const due = (d: DeliveryRead) => d.status === 'pending' && (d.next_attempt_at ?? '') <= now
  return poll(
    sb,
    (all) => !all.some(due),
    (all) => `deliveries still due at ${now}: ${JSON.stringify(all.filter(due))}`,
  )
}
