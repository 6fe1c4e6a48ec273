// The merchant's own test suite (merchant.ts), as its team would write it against the sandbox:
// one company (a tenant) for the whole suite, its webhook receiver subscribed once, and before
// each test a clean slate (faults left by a failed test cleared). Each scenario is one test; the
// regression suite runs them in several orders, and with one bug at a time.
import assert from 'node:assert/strict'
import type { Sandbox, Tenant } from '../../../src/index.js'
import { PermanentError, PixClient, Receiver, type Bugs, type Order } from './merchant.js'

export interface Shop {
  sb: Sandbox
  tenant: Tenant
  receiver: Receiver
  hookId: string
  bugs: Bugs
  /** The shop's client; `timeoutMs` for one that gives up sooner. */
  client(timeoutMs?: number, secret?: string): PixClient
}

export async function openShop(sb: Sandbox, bugs: Bugs = {}): Promise<Shop> {
  const tenant = await sb.tenant({ name: 'Loja Integrada', balance: 1_000_000 })
  const receiver = new Receiver(bugs)
  await receiver.start()
  const hook = await tenant.control.webhooks.subscribe(receiver.url)
  receiver.secret = hook.secret
  const client = (timeoutMs = 5000, secret = tenant.credentials.clientSecret) =>
    new PixClient(tenant.baseUrl, tenant.credentials.clientId, secret, receiver, {
      timeoutMs,
      bugs,
    })
  return { sb, tenant, receiver, hookId: hook.id, bugs, client }
}

export interface Scenario {
  name: string
  run(shop: Shop): Promise<void>
}

const supplier = (id: string): Order => ({
  id,
  amount: 1000,
  pixKey: 'fornecedor@example.com',
  pixType: 'EMAIL',
})

export const SCENARIOS: Scenario[] = [
  {
    name: 'a paid charge is credited once',
    async run({ tenant, receiver, client }) {
      const charge = await client().createCharge(2500, 'Pedido C1')
      await tenant.control.charges.pay(charge.transaction_id)
      assert.ok(
        await receiver.waitFor(['charge.paid'], { transaction_id: charge.transaction_id }),
        'charge.paid received',
      )
    },
  },
  {
    name: 'a webhook that comes twice is processed once',
    async run({ tenant, receiver, client, hookId }) {
      await tenant.control.api.PUT('/webhooks/{webhook_id}/chaos', {
        params: { path: { webhook_id: hookId } },
        body: { duplicate: 1 },
      })
      try {
        const charge = await client().createCharge(3000, 'Pedido C2')
        await tenant.control.charges.pay(charge.transaction_id)
        assert.ok(
          await receiver.waitFor(['charge.paid'], { transaction_id: charge.transaction_id }),
        )
        assert.equal(
          receiver.events('charge.paid', { transaction_id: charge.transaction_id }).length,
          1,
        )
      } finally {
        await tenant.control.api.DELETE('/webhooks/{webhook_id}/chaos', {
          params: { path: { webhook_id: hookId } },
        })
      }
    },
  },
  {
    name: 'a wrong secret is refused, not retried',
    async run({ client }) {
      await assert.rejects(
        client(5000, 'not-the-secret').createCharge(1000, 'Pedido C3'),
        PermanentError,
      )
    },
  },
  {
    name: 'pays a supplier out',
    async run({ client }) {
      assert.equal(await client().payout(supplier('P1')), 'paid')
    },
  },
  {
    name: 'a pending payout is paid when it settles',
    async run({ tenant, receiver, client }) {
      assert.equal(
        await client().payout({
          id: 'P2',
          amount: 1500,
          pixKey: 'pending@pix.example',
          pixType: 'EMAIL',
        }),
        'pending',
      )
      const pending = await receiver.waitFor(['transfer.pending'], { description: 'Pedido P2' })
      assert.ok(pending)
      await tenant.control.transfers.settle(String(pending.data.transaction_id), 'success')
      assert.ok(await receiver.waitFor(['transfer.succeeded'], { description: 'Pedido P2' }))
    },
  },
  {
    name: 'a payout whose answer is lost is reconciled, not sent again',
    async run({ tenant, client }) {
      await tenant.control.faults.add({
        operation: 'transfer',
        status: 500,
        when: 'after',
        times: 1,
      })
      assert.equal(await client().payout(supplier('P3')), 'paid')
    },
  },
  {
    name: 'a payout that times out is reconciled, not sent again',
    async run({ tenant, client }) {
      await tenant.control.faults.add({
        operation: 'transfer',
        when: 'after',
        delay_ms: 1500,
        times: 1,
      })
      assert.equal(await client(300).payout(supplier('P4')), 'paid')
    },
  },
  {
    name: 'a charge waits out a 503 as long as it asks',
    async run({ tenant, client }) {
      await tenant.control.faults.add({
        operation: 'charge',
        status: 503,
        retry_after: 1,
        times: 1,
      })
      const started = Date.now()
      await client().createCharge(1000, 'Pedido C4')
      assert.ok(Date.now() - started >= 1000)
    },
  },
  {
    name: 'a Provider that cannot pay out is said, not retried',
    async run({ tenant, client }) {
      await tenant.control.faults.add({ operation: 'transfer', status: 501 })
      await assert.rejects(client().payout(supplier('P5')), PermanentError)
    },
  },
  {
    name: 'the receiver passes the receiver check',
    async run({ tenant, hookId }) {
      const { data } = await tenant.control.api.POST('/webhooks/{webhook_id}/check', {
        params: { path: { webhook_id: hookId } },
      })
      assert.equal(data?.passed, true, JSON.stringify(data))
    },
  },
  {
    name: 'pays the same supplier the same amount for a new order',
    async run({ client }) {
      assert.equal(await client().payout(supplier('P6')), 'paid')
    },
  },
]

/** Runs the scenarios in `order` as the suite's runner would: a clean slate before each; a failed test does not stop the others. */
export async function runSuite(shop: Shop, order: readonly Scenario[]): Promise<string[]> {
  const failed: string[] = []
  for (const scenario of order) {
    await shop.tenant.control.faults.clear()
    try {
      await scenario.run(shop)
    } catch (err) {
      failed.push(`${scenario.name}: ${(err as Error).message}`)
    }
  }
  return failed
}

export const scenario = (name: string): Scenario =>
  SCENARIOS.find((s) => s.name === name) ?? assert.fail(`no scenario ${name}`)
