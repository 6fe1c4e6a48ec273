// A small merchant integration in Node, written from docs/ (CONTRACT, WEBHOOKS, READINESS) the
// way a shop would write it, not to pass a test: a fetch client for charges and payouts, and a
// webhook receiver that verifies signatures (standardwebhooks), takes each webhook-id once and
// keeps what it was told. A payout whose answer is lost (a 5xx, a dropped connection, its own
// timeout) is reconciled from the transfer.* webhook (amount, pix_key, description), never sent
// again blindly. `Bugs` turns on one mistake at a time: the readiness catalog's regression suite
// (integrations.test.ts) checks each is caught, and that the correct shop raises nothing.
import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

/** One mistake real integrators make, each a few lines away from the correct code. */
export interface Bugs {
  /** A payout that timed out is sent again 1 s later, without reconciling. */
  resendAfterTimeout?: boolean
  /** A payout answered 5xx is sent again, its description saying which try it is. */
  retryWithNewDescription?: boolean
  /** A payout whose answer was lost is reconciled as paid from its webhook, then sent again anyway, its description saying so. */
  resendOnceReconciled?: boolean
  /** A 501 is taken for a temporary failure and retried. */
  retryPermanent?: boolean
  /** A 503 is retried at once, whatever its Retry-After says. */
  ignoreRetryAfter?: boolean
  /** The receiver keys its HMAC with the whsec_ text itself, not the bytes it encodes. */
  literalKey?: boolean
  /** The receiver takes whatever comes: no signature or timestamp check. */
  noVerification?: boolean
  /** The receiver answers 409 to a webhook-id it has already processed. */
  rejectDuplicates?: boolean
  /** Paths written with a trailing slash. */
  trailingSlash?: boolean
}

export class PermanentError extends Error {}
export class TemporaryError extends Error {}

export interface Order {
  id: string
  amount: number
  pixKey: string
  pixType: 'EMAIL' | 'CPF' | 'CNPJ' | 'PHONE'
}

export type PayoutResult = 'paid' | 'pending' | 'failed' | 'unknown'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** What the webhook receiver was told, by event id. */
export interface Told {
  type: string
  data: Record<string, unknown>
}

export class Receiver {
  url = ''
  secret = ''
  readonly told = new Map<string, Told>()
  private server?: http.Server

  constructor(private readonly bugs: Bugs = {}) {}

  private verified(body: string, headers: http.IncomingHttpHeaders): boolean {
    if (this.bugs.noVerification) return true
    if (!this.bugs.literalKey) {
      try {
        new Webhook(this.secret).verify(body, headers as Record<string, string>)
        return true
      } catch {
        return false
      }
    }
    const signed = `${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`
    const expected = Buffer.from(createHmac('sha256', this.secret).update(signed).digest('base64'))
    return String(headers['webhook-signature'] ?? '')
      .split(' ')
      .some((s) => {
        const given = Buffer.from(s.replace(/^v1,/, ''))
        return given.length === expected.length && timingSafeEqual(given, expected)
      })
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        if (!this.verified(body, req.headers)) return void res.writeHead(401).end()
        const id = String(req.headers['webhook-id'])
        if (this.told.has(id))
          return void res.writeHead(this.bugs.rejectDuplicates ? 409 : 204).end()
        const event = JSON.parse(body) as Told
        this.told.set(id, { type: event.type, data: event.data })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/pix`
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.server?.closeAllConnections()
      this.server?.close(() => r())
    })
  }

  /** The events of `type` whose data matches `match`. */
  events(type: string, match: Record<string, unknown> = {}): Told[] {
    return [...this.told.values()].filter(
      (e) => e.type === type && Object.entries(match).every(([k, v]) => e.data[k] === v),
    )
  }

  /** Waits up to `ms` for an event of one of `types` matching `match`. */
  async waitFor(
    types: string[],
    match: Record<string, unknown>,
    ms = 3000,
  ): Promise<Told | undefined> {
    for (const until = Date.now() + ms; Date.now() < until; await sleep(25)) {
      const found = types.flatMap((t) => this.events(t, match))[0]
      if (found) return found
    }
    return undefined
  }
}

export class PixClient {
  private readonly authorization: string

  constructor(
    private readonly baseUrl: string,
    clientId: string,
    clientSecret: string,
    private readonly receiver: Receiver,
    private readonly opts: { timeoutMs?: number; bugs?: Bugs } = {},
  ) {
    this.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`
  }

  private get bugs(): Bugs {
    return this.opts.bugs ?? {}
  }

  /** One call: its status, body and Retry-After; throws the fetch error (a timeout: TimeoutError). */
  private async call(
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: any; retryAfter: number }> {
    const res = await fetch(`${this.baseUrl}${path}${this.bugs.trailingSlash ? '/' : ''}`, {
      method: 'POST',
      headers: {
        authorization: this.authorization,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 5000),
    })
    const text = await res.text()
    return {
      status: res.status,
      body: text ? JSON.parse(text) : null,
      retryAfter: Number(res.headers.get('retry-after') ?? 0),
    }
  }

  /** A charge. A 503 is waited out as its Retry-After asks, a 500 half a second (three tries): a charge moves no money. */
  async createCharge(
    amount: number,
    description: string,
  ): Promise<{ transaction_id: string; qr_code: string }> {
    for (let attempt = 1; ; attempt++) {
      const r = await this.call('/hub/transactions/in', { amount, description })
      if (r.status === 200) return r.body
      const temporary =
        r.status === 500 || r.status === 503 || (this.bugs.retryPermanent && r.status === 501)
      if (!temporary) throw new PermanentError(`${r.status} ${JSON.stringify(r.body)}`)
      if (attempt === 3) throw new TemporaryError(`${r.status} ${JSON.stringify(r.body)}`)
      if (this.bugs.ignoreRetryAfter) continue
      await sleep(r.status === 503 ? Math.max(r.retryAfter, 1) * 1000 + 50 : 500)
    }
  }

  /**
   * Pays an order out. The description names the order, so that a payout whose answer was lost
   * (any 5xx, or no answer in time) is found by its webhook: it is reconciled, never sent again.
   * A 4xx or a 501 is no temporary failure: it is raised.
   */
  async payout(order: Order): Promise<PayoutResult> {
    const description = `Pedido ${order.id}`
    for (let attempt = 1; ; attempt++) {
      const tried =
        this.bugs.retryWithNewDescription && attempt > 1
          ? `${description} (tentativa ${attempt})`
          : description
      let r: Awaited<ReturnType<PixClient['call']>>
      try {
        r = await this.call('/hub/transactions/out', {
          amount: order.amount,
          pix_key: order.pixKey,
          pix_type: order.pixType,
          description: tried,
        })
      } catch (err) {
        if ((err as Error).name !== 'TimeoutError') throw err
        if (this.bugs.resendAfterTimeout && attempt === 1) {
          await sleep(1000)
          continue
        }
        return this.reconcile(order, description)
      }
      if (r.status === 200) return r.body.status === 'success' ? 'paid' : r.body.status
      if (r.status === 501 && this.bugs.retryPermanent && attempt < 3) continue
      if (r.status < 500 || r.status === 501)
        throw new PermanentError(`${r.status} ${JSON.stringify(r.body)}`)
      if (this.bugs.retryWithNewDescription && attempt < 2) continue
      const reconciled = await this.reconcile(order, description)
      if (!this.bugs.resendOnceReconciled || reconciled !== 'paid') return reconciled
      await this.call('/hub/transactions/out', {
        amount: order.amount,
        pix_key: order.pixKey,
        pix_type: order.pixType,
        description: `${description} (reenvio)`,
      })
      return reconciled
    }
  }

  /** What became of a payout whose answer was lost: its transfer.* webhook, by what was sent. */
  private async reconcile(order: Order, description: string): Promise<PayoutResult> {
    const match = { amount: order.amount, pix_key: order.pixKey, description }
    const told = await this.receiver.waitFor(
      ['transfer.succeeded', 'transfer.pending', 'transfer.failed'],
      match,
    )
    if (!told) return 'unknown'
    return told.type === 'transfer.succeeded'
      ? 'paid'
      : told.type === 'transfer.pending'
        ? 'pending'
        : 'failed'
  }
}
