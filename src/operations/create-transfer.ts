// Use case: send a transfer (POST /hub/transactions/out). Balance check, debit, record and
// events happen in one transaction, so concurrent transfers can never overdraw a balance: the
// decision reads the balance and the record debits it with nothing run in between.
import { decideTransfer, firstTransferRule, type OutcomeSources } from '../domain/transfer.js'
import type { PixType, Principal, Transfer, TransferOutcome } from '../domain/types.js'
import { emitAll, moveMoney, SANDBOX_ISPB, type Context, type NewEvent } from './context.js'

/** What a request asks; each field is named, undefined when the request left it out, so the handler that builds it cannot forget one. */
export interface NewTransfer {
  amount: number
  pixKey: string
  pixType: PixType
  description: string | null | undefined
  /** The outcome a test suite picked with `X-Sandbox-Outcome`, when the scenario honours it. */
  headerOutcome: TransferOutcome | undefined
}

export const transferEventType = (status: Transfer['status']) =>
  status === 'success' ? 'transfer.succeeded' : `transfer.${status}`

/**
 * What a transfer's events (and so its transfer.* webhooks) carry: enough to reconcile a payout
 * whose answer was lost, by what was sent (amount, key, description) as well as by its id.
 */
export const transferEventData = (
  t: Transfer,
  status: Transfer['status'],
  message: string | null,
) => ({
  transaction_id: t.id,
  amount: t.amount,
  pix_key: t.pixKey,
  pix_type: t.pixType,
  description: t.description,
  status,
  message,
})

export function createTransfer(ctx: Context, who: Principal, input: NewTransfer): Transfer {
  const { store, clock, ids } = ctx
  return store.txDecided(
    () => {
      const now = clock.now()
      const seq = store.transfers.nextSeq()
      const request = { amount: input.amount, pixKey: input.pixKey, pixType: input.pixType }
      const queued = input.headerOutcome ? undefined : store.outcomes.next(who.company.id, request)
      const sources: OutcomeSources = {
        header: input.headerOutcome,
        queued: queued?.outcome,
        rule: firstTransferRule(store.setup.rules().transfers, request)?.then,
      }
      const balance = store.ledger.balance(who.userId) ?? 0
      const decision = decideTransfer(
        request,
        balance,
        store.setup.pixKey(input.pixKey),
        store.setup.settings(),
        sources,
        now,
      )
      const transfer: Transfer = {
        // The row's key, whose code the id carries (ids.ts).
        id: ids.endToEndId(now, SANDBOX_ISPB, store.transfers.code(seq)),
        companyId: who.company.id,
        userId: who.userId,
        amount: input.amount,
        description: input.description ?? null,
        pixKey: input.pixKey,
        pixType: input.pixType,
        status: decision.status,
        message: decision.message,
        createdAt: now,
        settleAt: decision.settleAt,
        finalStatus: decision.finalStatus,
        finalMessage: decision.finalMessage,
        settledAt: null,
      }
      return {
        transfer,
        seq,
        debit: decision.debit,
        usedOutcome: queued && decision.source === 'queued' ? queued.id : null,
      }
    },
    ({ transfer, seq, debit, usedOutcome }) => {
      const now = transfer.createdAt
      store.transfers.insert(transfer, seq)
      if (usedOutcome !== null) store.outcomes.use(usedOutcome)
      const data = transferEventData(transfer, transfer.status, transfer.message)
      const events: NewEvent[] = [
        { type: 'transfer.created', at: now, companyId: transfer.companyId, data },
        { type: transferEventType(transfer.status), at: now, companyId: transfer.companyId, data },
      ]
      if (!debit) return void emitAll(ctx, events)
      // The decision read the balance in this same transaction: a refused debit here is a bug.
      // The debit's balance.changed comes first, then the transfer's events, in one statement.
      const debited = moveMoney(
        ctx,
        who.company.id,
        who.userId,
        -transfer.amount,
        'transfer_debit',
        transfer.id,
        now,
        events,
      )
      if (debited === null)
        throw new Error(`the balance of ${who.userId} changed between the decision and the debit`)
    },
  ).transfer
}
