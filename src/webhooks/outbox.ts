// Turns events of the log into deliveries, in the transaction that writes the event, for every
// active subscription that wants them: the queue can never miss an event or hold a phantom one.
import type { Micros } from '../clock.js'
import { formatAmount } from '../domain/money.js'
import { isoMillis } from '../domain/time.js'
import type { SandboxEvent } from '../domain/types.js'
import { companyKey } from '../pix/location.js'
import type { Store } from '../store/index.js'
import type { Subscription } from '../store/webhooks.js'

/** The body a subscription receives for an event, or null when its format has no such message. */
export function webhookBody(sub: Subscription, e: SandboxEvent): string | null {
  if (sub.format === 'standard') {
    return JSON.stringify({
      type: e.type,
      timestamp: isoMillis(e.at),
      data: { ...e.data, company_id: e.companyId },
    })
  }
  // The BCB API Pix webhook only tells of PIX received.
  if (e.type !== 'charge.paid') return null
  const d = e.data as {
    transaction_id: string
    amount: number
    end_to_end_id: string
    payer: { name: string; document: string } | null
  }
  const pagador = d.payer && {
    nome: d.payer.name,
    [d.payer.document.length > 11 ? 'cnpj' : 'cpf']: d.payer.document,
  }
  return JSON.stringify({
    pix: [
      {
        endToEndId: d.end_to_end_id,
        txid: d.transaction_id,
        valor: formatAmount(d.amount),
        chave: companyKey(e.companyId ?? ''),
        horario: isoMillis(e.at),
        ...(pagador && { pagador }),
      },
    ],
  })
}

const wants = (sub: Subscription, e: SandboxEvent) =>
  (sub.events as readonly string[]).includes(e.type) &&
  (sub.companyId === null || sub.companyId === e.companyId)

/** Queues the event for every subscription that wants it; `delayUs` holds it back (reorder chaos). */
export function enqueueEvent(store: Store, newId: () => string, e: SandboxEvent): number {
  let queued = 0
  for (const sub of store.webhooks.activeFor(e.companyId)) {
    if (!wants(sub, e)) continue
    const body = webhookBody(sub, e)
    if (body === null) continue
    store.webhooks.enqueue({
      id: newId(),
      webhookId: sub.id,
      eventId: e.id,
      eventType: e.type,
      companyId: e.companyId,
      body,
      nextAttemptAt: e.at + holdFor(sub),
      createdAt: e.at,
    })
    queued++
  }
  return queued
}

/** With reorder chaos, deliveries wait this long so later events can overtake them. */
export const REORDER_HOLD_US: Micros = 2_000_000
const holdFor = (sub: Subscription): Micros => (sub.chaos?.reorder ? REORDER_HOLD_US : 0)
