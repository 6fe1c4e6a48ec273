// Shapes of the control plane: request bodies, query strings and the records it answers.
import { z } from '@hono/zod-openapi'
import { MAX_AMOUNT } from '../../domain/money.js'
import { PIX_TYPES, type PixType } from '../../domain/types.js'
import { providerSchema, transferOutcomeSchema } from '../../scenarios/schema.js'

const iso = z.string().openapi({ example: '2026-03-01T12:30:45.123456Z' })
const isoOrNull = iso.nullable()
export const amount = z.int().min(1).max(MAX_AMOUNT)
export const pixType = z.enum(PIX_TYPES)

export const Detail = z.object({ detail: z.string() }).openapi('SandboxError')

export const listQuery = z
  .object({
    company_id: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().optional(),
  })
  .strict()

export const page = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() })

export const Payer = z.object({ name: z.string().min(1).max(140), document: z.string().regex(/^\d{11}$|^\d{14}$/, 'must be a CPF (11 digits) or a CNPJ (14 digits)') })

/** The fields charges and transfers share. */
const moneyRecord = {
  transaction_id: z.string(),
  company_id: z.string(),
  user_id: z.string(),
  amount: z.int().openapi({ description: 'Cents.' }),
  description: z.string().nullable(),
}

export const ChargeRecord = z
  .object({
    ...moneyRecord,
    status: z.enum(['pending', 'paid', 'cancelled']),
    qr_code: z.string(),
    qr_code_name: z.string(),
    location: z.string().openapi({ description: 'The location URL of the dynamic code, without scheme.' }),
    created_at: iso,
    expiration: iso,
    expiration_date: z.string().openapi({ description: 'As the contract answered it (local time).' }),
    paid_at: isoOrNull,
    cancelled_at: isoOrNull,
    cancel_reason: z.enum(['expired', 'cancelled']).nullable(),
    end_to_end_id: z.string().nullable(),
    payer: Payer.nullable(),
  })
  .openapi('ChargeRecord')

export const TransferRecord = z
  .object({
    ...moneyRecord,
    pix_key: z.string(),
    pix_type: pixType,
    status: z.enum(['success', 'pending', 'failed']),
    message: z.string(),
    created_at: iso,
    settle_at: isoOrNull.openapi({ description: 'When a pending transfer settles on its own, if it does.' }),
    final_status: z.enum(['success', 'failed']).nullable(),
    settled_at: isoOrNull,
  })
  .openapi('TransferRecord')

export const EventRecord = z
  .object({ id: z.string(), type: z.string(), at: iso, company_id: z.string().nullable(), data: z.record(z.string(), z.unknown()) })
  .openapi('Event')

export const Provider = providerSchema.openapi('Provider')
export const Outcome = transferOutcomeSchema

export const idParam = (name: string) => z.object({ [name]: z.string().min(1).max(200) })
