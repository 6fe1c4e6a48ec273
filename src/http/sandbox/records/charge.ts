// A charge as the control plane shows it: the published schema, and the mapper held to it.
import { z } from '@hono/zod-openapi'
import { LOCATION_PATH } from '../../../config.js'
import { isoMicros, localDateTime } from '../../../domain/time.js'
import { CANCEL_REASONS, CHARGE_STATUSES } from '../../../domain/enums.js'
import type { Charge } from '../../../domain/types.js'
import type { Context } from '../../../operations/context.js'
import { EXAMPLE_CHARGE_ID, EXAMPLE_QR_CODE } from '../../contract/schemas.js'
import { iso, isoOrNull, maybeIso, moneyRecord, orNull, Payer } from '../schemas.js'

/** The default scenario's first charge, paid with POST /charges/{transaction_id}/pay (see EXAMPLE_CHARGE_ID). */
export const CHARGE_EXAMPLE = {
  transaction_id: EXAMPLE_CHARGE_ID,
  company_id: 'loja-exemplo',
  user_id: 'loja-exemplo-user',
  amount: 1000,
  description: 'Pedido 1234',
  status: 'paid',
  qr_code: EXAMPLE_QR_CODE,
  qr_code_name: 'Loja Exemplo Ltda #1',
  location: 'localhost:8080/pix/qr/v2/0hg91vteyo012o1e5m0skm6m3',
  created_at: '2026-03-01T12:00:00.000000Z',
  expiration: '2026-03-01T13:00:00.000000Z',
  expiration_date: '2026-03-01T10:00:00',
  paid_at: '2026-03-01T12:00:00.000000Z',
  cancelled_at: null,
  cancel_reason: null,
  end_to_end_id: 'E0000000020260301120000000U3wUoK',
  payer: { name: 'Maria Souza', document: '52998224725' },
}

export const ChargeRecord = z
  .object({
    ...moneyRecord,
    status: z
      .enum(CHARGE_STATUSES)
      .openapi({ description: 'pending until paid; paid and cancelled are final.' }),
    qr_code: z.string().openapi({
      description: 'The BR Code "copia e cola" the contract answered (or the payload reused).',
    }),
    qr_code_name: z.string().openapi({ description: 'The short name the contract answered.' }),
    location: z
      .string()
      .openapi({ description: 'The location URL of the dynamic code, without scheme.' }),
    created_at: iso.openapi({ description: 'When the charge was created (virtual time).' }),
    expiration: iso.openapi({ description: 'When a pending charge expires (virtual time, UTC).' }),
    expiration_date: z.string().openapi({
      description:
        "The expiry as the contract answered it: local time in the scenario's time zone, no offset.",
      example: '2026-03-01T10:30:45',
    }),
    paid_at: isoOrNull.openapi({ description: 'When it was paid; null unless paid.' }),
    cancelled_at: isoOrNull.openapi({
      description: 'When it was cancelled or expired; null otherwise.',
    }),
    cancel_reason: z
      .enum(CANCEL_REASONS)
      .nullable()
      .openapi({ description: 'Why it was cancelled; null unless cancelled.' }),
    end_to_end_id: z
      .string()
      .nullable()
      .openapi({ description: 'The end-to-end id of the PIX that paid it; null unless paid.' }),
    payer: orNull(Payer).openapi({ description: 'Who paid it; null unless paid.' }),
  })
  .openapi('ChargeRecord', {
    description: 'A charge with everything the sandbox knows of it.',
    example: CHARGE_EXAMPLE,
  })
export type ChargeRecord = z.output<typeof ChargeRecord>

export function chargeRecord(ctx: Context, c: Charge): ChargeRecord {
  return {
    transaction_id: c.id,
    company_id: c.companyId,
    user_id: c.userId,
    amount: c.amount,
    description: c.description,
    status: c.status,
    qr_code: c.qrCode,
    qr_code_name: c.qrCodeName,
    location: `${ctx.locationBase}${LOCATION_PATH}${c.locationId}`,
    created_at: isoMicros(c.createdAt),
    expiration: isoMicros(c.expiresAt),
    expiration_date: localDateTime(c.expiresAt, ctx.store.setup.settings().timezone),
    paid_at: maybeIso(c.paidAt),
    cancelled_at: maybeIso(c.cancelledAt),
    cancel_reason: c.cancelReason,
    end_to_end_id: c.endToEndId,
    payer: c.payer,
  }
}
