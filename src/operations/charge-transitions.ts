// Use cases that end a charge: payment (credits the balance) and cancellation. Both re-read the
// charge inside the transaction, so two concurrent payments credit it once.
import type { Micros } from '../clock.js'
import { assertPayable } from '../domain/charge.js'
import { AppError, notFound } from '../domain/errors.js'
import type { CancelReason, Charge, Payer } from '../domain/types.js'
import { emit, moveMoney, SANDBOX_ISPB, type Context } from './context.js'

export interface Payment {
  at?: Micros
  payer?: Payer | null
  endToEndId?: string
}

export function payCharge(ctx: Context, chargeId: string, p: Payment = {}): Charge {
  const { store } = ctx
  return store.tx(() => {
    const at = p.at ?? ctx.clock.now()
    const charge = store.charges.byId(chargeId)
    if (!charge) throw notFound('Charge')
    assertPayable(charge, at)
    const endToEndId =
      p.endToEndId ?? ctx.ids.endToEndId(at, SANDBOX_ISPB, undefined, charge.companyId)
    if (!store.charges.markPaid(charge.id, at, endToEndId, p.payer ?? null))
      throw new AppError('conflict', 'Charge is not pending')
    moveMoney(ctx, charge.companyId, charge.userId, charge.amount, 'charge_paid', charge.id, at)
    emit(ctx, 'charge.paid', at, charge.companyId, {
      transaction_id: charge.id,
      amount: charge.amount,
      end_to_end_id: endToEndId,
      payer: p.payer ?? null,
    })
    return store.charges.byId(charge.id)!
  })
}

export function cancelCharge(
  ctx: Context,
  chargeId: string,
  reason: CancelReason,
  at?: Micros,
): Charge {
  const { store } = ctx
  return store.tx(() => {
    const when = at ?? ctx.clock.now()
    const charge = store.charges.byId(chargeId)
    if (!charge) throw notFound('Charge')
    // Expiring a charge that is past its expiry is allowed: it only makes official what is due.
    if (reason === 'cancelled') assertPayable(charge, when)
    else if (charge.status !== 'pending')
      throw new AppError('conflict', `Charge is ${charge.status}`)
    store.charges.markCancelled(charge.id, when, reason)
    emit(ctx, 'charge.cancelled', when, charge.companyId, {
      transaction_id: charge.id,
      amount: charge.amount,
      reason,
    })
    return store.charges.byId(charge.id)!
  })
}
