// The company and the writes test/sandbox/reads.test.ts measures every read of the control plane
// by: a company of two users, the second not named after it; a write for each state a charge and
// a transfer can be left in, by the state's name; and a read's answer taken as its leaves.
import { expect } from 'vitest'
import { TRANSFER_STATUSES } from '../../src/domain/enums.js'
import { basic, type TestSandbox } from '../harness.js'

/** A read's answer as its leaves: `data.0.status` → `"paid"`. */
export type Leaves = Map<string, unknown>

/** A company of two users, the second not named after it: a read of the company shows both. */
export const ACME = {
  id: 'acme',
  name: 'Acme Ltda',
  users: [
    ['acme-user', 'acme'],
    ['vendedora-2', 'vendedora'],
  ].map(([id, client]) => ({
    id,
    balance: 1_000_000,
    providers: {
      in: { name: 'B', operations: ['charge'] },
      out: { name: 'B', operations: ['transfer'] },
    },
    credentials: [{ client_id: client, client_secret: `${client}-secret` }],
  })),
}
export const [FIRST, SECOND] = [
  basic('acme', 'acme-secret'),
  basic('vendedora', 'vendedora-secret'),
]

/** `value`'s leaves, each under its path. */
export function leavesOf(value: unknown, at = '', into: Leaves = new Map()): Leaves {
  if (value !== null && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      leavesOf(inner, at ? `${at}.${key}` : key, into)
  else into.set(at, value)
  return into
}

/** The leaves that differ between two answers, or that one of them lacks. */
export function changed(before: Leaves, after: Leaves): Set<string> {
  const paths = new Set([...before.keys(), ...after.keys()])
  return new Set([...paths].filter((p) => before.get(p) !== after.get(p)))
}

/**
 * A value that says a status: the status, or an event's type ending with it (`charge.paid`); a
 * record's first state, pending, is also said by the event of its creation (`charge.created`).
 */
export const namesStatus = (value: unknown, status: string) =>
  value === status ||
  (typeof value === 'string' &&
    (value.endsWith(`.${status}`) || (status === 'pending' && value.endsWith('.created'))))

/** A state's status: the two ways a charge is cancelled need not be told apart. */
export const statusOf = (state: string) => state.split(' ')[0]

/** A write, and what must be there before the reads it is measured by. */
export type Write = (() => Promise<unknown>) & { prepare?: () => Promise<unknown> }

/** A write for each state a transfer or a charge can be left in, on the sandbox `sb()` answers. */
export function stateWrites(sb: () => TestSandbox): {
  TRANSFERS: Record<string, Write>
  CHARGES: Record<string, Write>
} {
  const contract = (
    direction: 'in' | 'out',
    json: object,
    headers?: Record<string, string>,
    auth = FIRST,
  ) => sb().request('POST', `/api/v1/hub/transactions/${direction}`, { auth, json, headers })

  /** A write for each state a transfer or a charge can be left in, by the state's name. */
  const TRANSFERS: Record<string, Write> = Object.fromEntries(
    TRANSFER_STATUSES.map((status) => [
      status,
      async () => {
        const sent = await contract(
          'out',
          { amount: 1234, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
          { 'x-sandbox-outcome': status },
        )
        expect(sb().sandbox.store.transfers.byId(sent.body.transaction_id)?.status).toBe(status)
      },
    ]),
  )
  TRANSFERS["failed (by the company's other user)"] = async () => {
    const sent = await contract(
      'out',
      { amount: 1234, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      { 'x-sandbox-outcome': 'failed' },
      SECOND,
    )
    expect(sent.body.status).toBe('failed')
  }
  // Pending with its settlement already scheduled (a queued outcome): pending, whatever it will be.
  TRANSFERS['pending (its settlement scheduled, as a success)'] = async () => {
    const queued = await sb().admin('POST', '/outcomes', {
      status: 'pending',
      settle_after_seconds: 60,
      final_status: 'success',
    })
    expect(queued.status, queued.text).toBeLessThan(300)
    const sent = await contract('out', {
      amount: 1234,
      pix_key: 'maria@example.com',
      pix_type: 'EMAIL',
    })
    expect(sent.body.status).toBe('pending')
  }
  // Left failed the other way, through the money: debited while pending, then refunded.
  TRANSFERS['failed (settled from pending: its debit refunded)'] = async () => {
    const sent = await contract(
      'out',
      { amount: 1234, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      { 'x-sandbox-outcome': 'pending' },
    )
    const settled = await sb().admin('POST', `/transfers/${sent.body.transaction_id}/settle`, {
      status: 'failed',
    })
    expect(settled.body.status).toBe('failed')
  }
  let code: string
  const newCharge = async () =>
    (await contract('in', { amount: 1500 })).body.transaction_id as string
  const CHARGES: Record<string, Write> = {
    pending: async () => {
      await newCharge()
    },
    paid: async () => {
      await sb().admin('POST', `/charges/${await newCharge()}/pay`)
    },
    'cancelled (expired)': async () => {
      await sb().admin('POST', `/charges/${await newCharge()}/expire`)
    },
    'cancelled (cancelled)': async () => {
      await sb().admin('POST', `/charges/${await newCharge()}/cancel`)
    },
    "pending (by the company's other user)": async () => {
      expect((await contract('in', { amount: 1500 }, undefined, SECOND)).status).toBe(200)
    },
    'pending (made with a payload: a code reused)': Object.assign(
      async () => {
        const reused = await contract('in', { amount: 1500, payload: code })
        expect(reused.body.qr_code).toBe(code)
      },
      {
        // The code is another charge's, made before the reads: a paid one, so the write adds one
        // pending charge.
        prepare: async () => {
          const first = await contract('in', { amount: 1500 })
          code = first.body.qr_code
          await sb().admin('POST', `/charges/${first.body.transaction_id}/pay`)
        },
      },
    ),
  }

  return { TRANSFERS, CHARGES }
}
