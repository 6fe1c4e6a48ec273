// Use case: settle a pending transfer. A failed settlement refunds the debit with a reversing
// ledger entry in the same transaction.
import type { Micros } from '../clock.js'
import { notFound } from '../domain/errors.js'
import { settleTransfer } from '../domain/transfer.js'
import type { SettledStatus, Transfer } from '../domain/types.js'
import { emit, moveMoney, type Context } from './context.js'
import { transferEventData, transferEventType } from './create-transfer.js'

export function settleTransferNow(
  ctx: Context,
  transferId: string,
  status: SettledStatus,
  message?: string,
  at?: Micros,
): Transfer {
  const { store } = ctx
  return store.tx(() => {
    const when = at ?? ctx.clock.now()
    const transfer = store.transfers.byId(transferId)
    if (!transfer) throw notFound('Transfer')
    const s = settleTransfer(transfer, status, message)
    store.transfers.settle(transfer.id, s.status, s.message, when)
    if (s.refund > 0)
      moveMoney(
        ctx,
        transfer.companyId,
        transfer.userId,
        s.refund,
        'transfer_refund',
        transfer.id,
        when,
      )
    emit(
      ctx,
      transferEventType(s.status),
      when,
      transfer.companyId,
      transferEventData(transfer, s.status, s.message),
    )
    return store.transfers.byId(transfer.id)!
  })
}
