// Use case: a Provider notifies received PIX payments, in the BCB API Pix webhook shape
// (`{pix: [{endToEndId, txid, valor, horario, pagador?}]}`). Every way of paying a charge (the
// control plane, a copy-and-paste code, automatic payment) goes through here. A notification is
// applied whole or not at all; a repeated one (same endToEndId, same charge) credits nothing.
import type { Micros } from '../clock.js'
import { AppError, conflict, notFound } from '../domain/errors.js'
import { formatAmount, parseAmount } from '../domain/money.js'
import { isoMillis } from '../domain/time.js'
import type { Charge, Payer } from '../domain/types.js'
import { payCharge } from './charge-transitions.js'
import { SANDBOX_ISPB, type Context } from './context.js'

export interface PixReceived {
  endToEndId: string
  txid: string
  /** Amount as the BCB API writes it: "10.00". */
  valor: string
  horario?: string
  pagador?: { nome?: string; cpf?: string; cnpj?: string }
  infoPagador?: string
}

export interface PixResult {
  txid: string
  endToEndId: string
  duplicate: boolean
  charge: Charge
}

const payerOf = (p: PixReceived['pagador']): Payer | null =>
  p && (p.nome || p.cpf || p.cnpj) ? { name: p.nome ?? '', document: p.cpf ?? p.cnpj ?? '' } : null

/**
 * `companyId` limits the notification to one company's charges (a company's own credentials);
 * `at` is the virtual instant of payment (now, unless due work runs at its own due time).
 */
export function receivePix(
  ctx: Context,
  items: PixReceived[],
  companyId?: string,
  at?: Micros,
): PixResult[] {
  const { store } = ctx
  return store.tx(() =>
    items.map((item, i) => {
      const where = items.length > 1 ? `pix[${i}]: ` : ''
      const charge = store.charges.byId(item.txid)
      if (!charge || (companyId !== undefined && charge.companyId !== companyId)) {
        throw new AppError('not_found', `${where}no charge with txid "${item.txid}"`)
      }
      if (parseAmount(item.valor) !== charge.amount) {
        throw new AppError(
          'invalid_input',
          `${where}valor ${item.valor} differs from the charge amount`,
        )
      }
      if (charge.endToEndId === item.endToEndId)
        return { txid: charge.id, endToEndId: item.endToEndId, duplicate: true, charge }
      // Looked up within the charge's company only, so the answer tells nothing of another's.
      const other = store.charges.byEndToEndId(charge.companyId, item.endToEndId)
      if (other)
        throw conflict(
          `${where}endToEndId ${item.endToEndId} already paid another charge of this company`,
        )
      try {
        const paid = payCharge(ctx, charge.id, {
          at,
          endToEndId: item.endToEndId,
          payer: payerOf(item.pagador),
        })
        return { txid: paid.id, endToEndId: item.endToEndId, duplicate: false, charge: paid }
      } catch (err) {
        if (err instanceof AppError && where) throw new AppError(err.code, where + err.detail)
        throw err
      }
    }),
  )
}

/** Pays one charge as its payer's bank would: a fresh end-to-end id and a payer. */
export function payChargeAsBank(
  ctx: Context,
  chargeId: string,
  payer: Payer | null,
  companyId?: string,
  at?: Micros,
): PixResult {
  const charge = ctx.store.charges.byId(chargeId)
  if (!charge || (companyId !== undefined && charge.companyId !== companyId))
    throw notFound('Charge')
  const now = at ?? ctx.clock.now()
  const document = payer?.document ?? ''
  // A Provider's notification may have used the id drawn (it names its own): drawn again then.
  const draw = () => ctx.ids.endToEndId(now, SANDBOX_ISPB, undefined, charge.companyId)
  let endToEndId = draw()
  while (ctx.store.charges.byEndToEndId(charge.companyId, endToEndId)) endToEndId = draw()
  return receivePix(
    ctx,
    [
      {
        endToEndId,
        txid: charge.id,
        valor: formatAmount(charge.amount),
        horario: isoMillis(now),
        pagador: payer
          ? { nome: payer.name, ...(document.length > 11 ? { cnpj: document } : { cpf: document }) }
          : undefined,
      },
    ],
    companyId,
    now,
  )[0]!
}
