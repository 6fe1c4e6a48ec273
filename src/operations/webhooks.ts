// Use cases on webhook subscriptions: subscribe, unsubscribe, set chaos, queue a test message.
import { AppError, notFound } from '../domain/errors.js'
import { isoMillis } from '../domain/time.js'
import type { Chaos, Subscription, WebhookFormat } from '../store/webhooks.js'
import { MAX_SUBSCRIPTIONS } from '../webhooks/limits.js'
import { WEBHOOK_EVENTS, type WebhookEvent } from '../webhooks/schema.js'
import { newSecret } from '../webhooks/sign.js'
import { emit, type Context } from './context.js'

export interface NewSubscription {
  url: string
  events?: WebhookEvent[]
  format?: WebhookFormat
  secret?: string
  companyId: string | null
}

export function subscribe(ctx: Context, input: NewSubscription): Subscription {
  return ctx.store.tx(() => {
    if (input.companyId !== null && !ctx.store.identity.company(input.companyId))
      throw notFound('Company')
    if (ctx.store.webhooks.count(input.companyId) >= MAX_SUBSCRIPTIONS) {
      const whose =
        input.companyId === null
          ? 'global subscriptions (admin, no company_id)'
          : 'subscriptions per company'
      throw new AppError('invalid_input', `at most ${MAX_SUBSCRIPTIONS} ${whose}: delete one first`)
    }
    const now = ctx.clock.now()
    const sub: Subscription = {
      id: ctx.ids.prefixed('wh'),
      companyId: input.companyId,
      url: input.url,
      events: input.events ?? [...WEBHOOK_EVENTS],
      format: input.format ?? 'standard',
      secret: input.secret ?? newSecret(ctx.ids.bytes(24)),
      chaos: null,
      disabledAt: null,
      disabledReason: null,
      createdAt: now,
    }
    ctx.store.webhooks.add(sub)
    emit(ctx, 'webhook.created', now, sub.companyId, {
      webhook_id: sub.id,
      url: sub.url,
      events: sub.events,
      format: sub.format,
    })
    return sub
  })
}

export function unsubscribe(ctx: Context, id: string): void {
  ctx.store.tx(() => {
    if (!ctx.store.webhooks.remove(id)) throw notFound('Webhook')
  })
}

export function setChaos(ctx: Context, id: string, chaos: Chaos | null): Subscription {
  return ctx.store.tx(() => {
    if (!ctx.store.webhooks.get(id)) throw notFound('Webhook')
    ctx.store.webhooks.setChaos(id, chaos)
    return ctx.store.webhooks.get(id)!
  })
}

/** Queues a `webhook.test` message for one subscription, due now; returns the delivery id. */
export function queueTestMessage(ctx: Context, id: string): string {
  return ctx.store.tx(() => {
    const sub = ctx.store.webhooks.get(id)
    if (!sub) throw notFound('Webhook')
    if (sub.disabledAt !== null)
      throw new AppError('conflict', `Webhook is disabled: ${sub.disabledReason}`)
    const now = ctx.clock.now()
    const eventId = ctx.ids.prefixed('evt')
    const body =
      sub.format === 'standard'
        ? {
            type: 'webhook.test',
            timestamp: isoMillis(now),
            data: { webhook_id: sub.id, company_id: sub.companyId },
          }
        : {
            pix: [
              {
                endToEndId: ctx.ids.endToEndId(now, '00000000'),
                txid: 'webhooktest',
                valor: '0.01',
                horario: isoMillis(now),
              },
            ],
          }
    const deliveryId = ctx.ids.prefixed('msg')
    ctx.store.webhooks.enqueue({
      id: deliveryId,
      webhookId: sub.id,
      eventId,
      eventType: 'webhook.test',
      companyId: sub.companyId,
      body: JSON.stringify(body),
      nextAttemptAt: now,
      createdAt: now,
    })
    return deliveryId
  })
}
