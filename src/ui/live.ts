// The live stream: what changed, told to each open dashboard over Server-Sent Events, scoped like
// its pages. `notify` is called by use cases, by the webhook worker for every attempt and by the
// journal for every request, so with nobody listening it returns at once, and with listeners it
// only records the change: changes are coalesced and sent at most every FLUSH_MS, whatever the
// request rate. Listeners are bounded per session, per company and in all, the admin's apart
// (fair-pool.ts), so that one company cannot take the places of the admin or of another.
import type { Change } from '../operations/context.js'
import type { Scope } from '../http/env.js'
import { ADMIN_OWNER, companyOwner, createFairPool, type FairLimits } from './fair-pool.js'

const FLUSH_MS = 250
/** Changes kept whole per flush; beyond them only (topic, company) pairs, then only topics. */
const MAX_ITEMS = 50
const MAX_PAIRS = 1000
/** Streams per company (and for the admin, apart), and for all companies together. */
export const STREAM_LIMITS: FairLimits = { perOwner: 20, total: 100, whenFull: 'refuse' }
/** Streams per signed-in session: a few tabs (a browser opens at most 6 connections to a host). */
export const STREAMS_PER_SESSION = 5
/** The most streams open at once: the companies' total and the admin's own. */
export const MAX_STREAMS = STREAM_LIMITS.total + STREAM_LIMITS.perOwner

/** One change as the stream tells it: a topic (charge, transfer, balance, delivery, webhook, request, clock, event), and an id when there is one. */
interface Item {
  topic: string
  id: string | null
  companyId: string | null
}

interface Client {
  scope: Scope
  /** The dashboard session the stream was opened by. */
  session: string
  send(text: string): void
  /** Ends the stream: a company holding fewer took its place. */
  close(): void
}

const topicOf = (type: string) => type.slice(0, type.indexOf('.'))

function itemsOf(change: Change): Item[] {
  if (change.kind === 'clock') return [{ topic: 'clock', id: null, companyId: null }]
  if (change.kind === 'request')
    return [{ topic: 'request', id: null, companyId: change.companyId }]
  if (change.kind === 'delivery') {
    const delivery = { topic: 'delivery', id: change.id, companyId: change.companyId }
    return change.webhook ? [delivery, { topic: 'webhook', ...change.webhook }] : [delivery]
  }
  const { event } = change
  const data = event.data
  const id =
    typeof data.transaction_id === 'string'
      ? data.transaction_id
      : typeof data.reference === 'string'
        ? data.reference
        : event.id
  // Every event may queue webhook deliveries; the event log shows them all.
  return [
    { topic: topicOf(event.type), id, companyId: event.companyId },
    { topic: 'event', id: event.id, companyId: event.companyId },
  ]
}

const visible = (scope: Scope, item: Item) =>
  scope.admin || item.topic === 'clock' || item.companyId === scope.companyId

/** `onActive(true)` when the first listener arrives, `(false)` when the last leaves: the sandbox
 * is told to call `notify` only while someone listens. */
export function createLiveHub(
  onActive: (active: boolean) => void = () => {},
  limits: FairLimits = STREAM_LIMITS,
) {
  const clients = createFairPool<Client>(limits)
  const perSession = new Map<string, number>()
  let nextKey = 0
  const release = (client: Client) => {
    const held = perSession.get(client.session)! - 1
    if (held > 0) perSession.set(client.session, held)
    else perSession.delete(client.session)
  }
  let pending: Item[] = []
  // Beyond MAX_ITEMS: the (topic, company) pairs; beyond MAX_PAIRS: the topics alone, told to
  // everyone (a company may then refresh for nothing; it is never told another's ids).
  let pairs = new Map<string, Item>()
  let flood = new Set<string>()
  // biome-ignore lint/correctness/noUnusedVariables: read by `timer ??=` below, the one pending flush
  let timer: NodeJS.Timeout | null = null

  const flush = () => {
    timer = null
    const items = pending
    const overflow = [...pairs.values()]
    const flooded = flood
    pending = []
    pairs = new Map()
    flood = new Set()
    for (const client of clients.values()) {
      const seen = items.filter((i) => visible(client.scope, i))
      const topics = new Set(seen.map((i) => i.topic))
      for (const i of overflow) if (visible(client.scope, i)) topics.add(i.topic)
      flooded.forEach((t) => topics.add(t))
      if (topics.size === 0) continue
      const ids = [...new Set(seen.map((i) => i.id).filter((x): x is string => x !== null))]
      // `partial`: some changes were told without their ids, so views of one record refresh anyway.
      const partial = overflow.length > 0 || flooded.size > 0
      client.send(
        `event: change\ndata: ${JSON.stringify({ topics: [...topics], ids, partial })}\n\n`,
      )
    }
  }

  return {
    notify(change: Change): void {
      if (clients.size === 0) return
      for (const item of itemsOf(change)) {
        if (pending.length < MAX_ITEMS) pending.push(item)
        else if (pairs.size < MAX_PAIRS)
          pairs.set(`${item.topic} ${item.companyId}`, { ...item, id: null })
        else flood.add(item.topic)
      }
      timer ??= setTimeout(flush, FLUSH_MS)
    },

    /** Adds a listener; null when its session or company holds all it may. Returns the function that removes it. */
    listen(client: Client): (() => void) | null {
      const held = perSession.get(client.session) ?? 0
      if (held >= STREAMS_PER_SESSION) return null
      const key = String(++nextKey)
      const wasIdle = clients.size === 0
      const evicted = clients.add(
        key,
        client.scope.admin ? ADMIN_OWNER : companyOwner(client.scope.companyId),
        client,
      )
      if (!evicted) return null
      perSession.set(client.session, held + 1)
      for (const other of evicted) {
        release(other)
        other.close()
      }
      if (wasIdle) onActive(true)
      return () => {
        if (clients.delete(key) === undefined) return
        release(client)
        if (clients.size === 0) onActive(false)
      }
    },

    get listeners() {
      return clients.size
    },
  }
}

export type LiveHub = ReturnType<typeof createLiveHub>
