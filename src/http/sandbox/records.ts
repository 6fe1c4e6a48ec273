// How the control plane shows domain records: snake_case, ISO times, nothing hidden.
import { LOCATION_PATH } from '../../config.js'
import { isoMicros, localDateTime } from '../../domain/time.js'
import type { Charge, SandboxEvent, Transfer } from '../../domain/types.js'
import type { Context } from '../../operations/context.js'

const maybeIso = (us: number | null) => (us === null ? null : isoMicros(us))

export function chargeRecord(ctx: Context, c: Charge) {
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

export function transferRecord(t: Transfer) {
  return {
    transaction_id: t.id,
    company_id: t.companyId,
    user_id: t.userId,
    amount: t.amount,
    description: t.description,
    pix_key: t.pixKey,
    pix_type: t.pixType,
    status: t.status,
    message: t.message,
    created_at: isoMicros(t.createdAt),
    settle_at: maybeIso(t.status === 'pending' ? t.settleAt : null),
    final_status: t.status === 'pending' ? t.finalStatus : null,
    settled_at: maybeIso(t.settledAt),
  }
}

export function eventRecord(e: SandboxEvent) {
  return { id: e.id, type: e.type, at: isoMicros(e.at), company_id: e.companyId, data: e.data }
}
