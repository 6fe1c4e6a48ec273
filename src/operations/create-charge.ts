// Use case: create a charge (POST /hub/transactions/in). One transaction writes the charge and
// its event.
import { LOCATION_PATH, LOCATION_ID_LENGTH } from '../config.js'
import { firstChargeRule, scheduleCharge } from '../domain/charge.js'
import type { Charge, Principal } from '../domain/types.js'
import { asciiField, buildDynamicCode } from '../pix/brcode.js'
import { emit, type Context } from './context.js'

/** What a request asks (the contract's parsed body as it is: its handler checks the two have the same fields). */
export interface NewCharge {
  amount: number
  description?: string | null
  /** A valid BR Code to reuse as the charge's code (already checked by the caller). */
  payload?: string | null
}

/**
 * An integer's digits, outside V8's number-to-string cache: a template literal puts every new
 * number into that cache, which lives in the old generation, so each charge's number string was
 * promoted and died there (~4.5 KB a scavenge under load, 1.7 MB of RSS a bench round until the
 * first full collection: docs/PERFORMANCE.md). `toFixed` builds the string without the cache.
 */
const decimal = (n: number): string => n.toFixed(0)

export function createCharge(ctx: Context, who: Principal, input: NewCharge): Charge {
  const { store, clock, ids } = ctx
  const decided = store.txDecided(
    () => {
      const now = clock.now()
      const description = input.description ?? null
      // The row's key, whose codes the charge's ids carry (ids.ts).
      const seq = store.charges.nextSeq()
      const codes = store.charges.codes(seq)
      const locationId = ids.locationId(now, codes.location, LOCATION_ID_LENGTH)
      const merchantName = asciiField(who.company.name, 25, 'PIX SANDBOX')
      const qrCode =
        input.payload ??
        buildDynamicCode({
          location: `${ctx.locationBase}${LOCATION_PATH}${locationId}`,
          amount: input.amount,
          merchantName,
          merchantCity: who.company.city,
        })
      const rule = firstChargeRule(store.setup.rules().charges, input.amount, description)
      const charge: Charge = {
        id: ids.txid(now, codes.id),
        companyId: who.company.id,
        userId: who.userId,
        amount: input.amount,
        description,
        status: 'pending',
        qrCode,
        qrCodeName: `${merchantName} #${decimal(store.charges.nextNumber(who.company.id))}`,
        locationId,
        createdAt: now,
        ...scheduleCharge(now, store.setup.settings(), rule),
        paidAt: null,
        cancelledAt: null,
        cancelReason: null,
        endToEndId: null,
        payer: null,
        revision: 0,
      }
      return { charge, seq }
    },
    ({ charge, seq }) => {
      store.charges.insert(charge, seq, input.payload != null)
      emit(ctx, 'charge.created', charge.createdAt, charge.companyId, {
        transaction_id: charge.id,
        amount: charge.amount,
      })
    },
  )
  return decided.charge
}
