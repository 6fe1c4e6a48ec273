// A transfer as the control plane shows it: the published schema, and the mapper held to it.
import { z } from '@hono/zod-openapi'
import { isoMicros } from '../../../domain/time.js'
import { SETTLED_STATUSES, TRANSFER_STATUSES } from '../../../domain/enums.js'
import type { Transfer } from '../../../domain/types.js'
import { iso, isoOrNull, maybeIso, moneyRecord, pixType } from '../schemas.js'

/** The default scenario's first transfer: a success. */
export const TRANSFER_EXAMPLE = {
  transaction_id: 'E00000000202603011200000002Fln5I',
  company_id: 'loja-exemplo',
  user_id: 'loja-exemplo-user',
  amount: 2500,
  description: 'Pagamento fornecedor',
  pix_key: 'maria@example.com',
  pix_type: 'EMAIL',
  status: 'success',
  message: 'Transfer completed',
  created_at: '2026-03-01T12:00:00.000000Z',
  settle_at: null,
  final_status: null,
  settled_at: null,
}

export const TransferRecord = z
  .object({
    ...moneyRecord,
    pix_key: z.string().openapi({ description: 'The destination key.' }),
    pix_type: pixType.openapi({ description: 'The type of the destination key.' }),
    status: z
      .enum(TRANSFER_STATUSES)
      .openapi({ description: 'pending until settled; success and failed are final.' }),
    message: z
      .string()
      .openapi({ description: 'The message the contract answered, or the one it settled with.' }),
    created_at: iso.openapi({ description: 'When the transfer was created (virtual time).' }),
    settle_at: isoOrNull.openapi({
      description: 'When a pending transfer settles on its own, if it does; null otherwise.',
    }),
    final_status: z
      .enum(SETTLED_STATUSES)
      .nullable()
      .openapi({ description: 'What a pending transfer settles as on its own; null otherwise.' }),
    settled_at: isoOrNull.openapi({
      description: 'When a pending transfer was settled; null until then.',
    }),
  })
  .openapi('TransferRecord', {
    description: 'A transfer with everything the sandbox knows of it.',
    example: TRANSFER_EXAMPLE,
  })
export type TransferRecord = z.output<typeof TransferRecord>

export function transferRecord(t: Transfer): TransferRecord {
  const pending = t.status === 'pending'
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
    settle_at: maybeIso(pending ? t.settleAt : null),
    final_status: pending ? t.finalStatus : null,
    settled_at: maybeIso(t.settledAt),
  }
}
