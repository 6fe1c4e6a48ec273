// The contract's request and response bodies (docs/CONTRACT.md#body-rules). These schemas validate requests and are
// what /openapi.json publishes, so the document and the behaviour cannot disagree.
import { z } from '@hono/zod-openapi'
import { MAX_AMOUNT } from '../../domain/money.js'
import { PIX_TYPES, TRANSFER_STATUSES } from '../../domain/enums.js'
import { parseBrCode } from '../../pix/brcode.js'
import { pixKeyProblem } from '../../pix/keys.js'
import { hasLoneSurrogate } from '../python-dumps.js'
import type { IssueParams } from '../validation.js'

const AMOUNT_RULE = 'must be an integer greater than 0'
const codePoints = (s: string) => [...s].length

/** Fields that pydantic coerces leniently in the fastapi style ("100" -> 100). */
export const LAX_INT_FIELDS = ['amount'] as const

const valueError = (msg: string): IssueParams => ({
  type: 'value_error',
  msg: `Value error, ${msg}`,
  ctx: { error: {} },
})

const amount = z
  .number({ error: AMOUNT_RULE })
  .refine(Number.isInteger, {
    error: AMOUNT_RULE,
    params: {
      type: 'int_from_float',
      msg: 'Input should be a valid integer, got a number with a fractional part',
    },
  })
  .gt(0, { error: AMOUNT_RULE })
  .lte(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` })
  .openapi({ type: 'integer', description: 'Amount in cents (1000 = R$ 10,00).', example: 1000 })

const description = z
  .string({ error: 'must be a string' })
  // A lone surrogate (`"\ud800"`) is no text to pydantic's constrained strings.
  .refine((s) => !hasLoneSurrogate(s), {
    error: 'must be a string',
    params: {
      type: 'string_unicode',
      msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
    },
  })
  .refine((s) => codePoints(s) <= 140, {
    error: 'must be at most 140 characters',
    params: {
      type: 'string_too_long',
      msg: 'String should have at most 140 characters',
      ctx: { max_length: 140 },
    },
  })
  .nullable()
  .optional()
  .openapi({
    maxLength: 140,
    description: 'Message to the payer, at most 140 characters.',
    example: 'Pedido 1234',
  })

export const ChargeRequest = z
  .object({
    amount,
    description,
    payload: z
      .string({ error: 'must be a string' })
      .nullable()
      .optional()
      .openapi({ description: "A BR Code to reuse as the charge's code; it must be valid." }),
  })
  .superRefine((body, ctx) => {
    // Like a pydantic model validator, it runs only on a body whose fields all passed.
    if (ctx.issues.length || typeof body.payload !== 'string') return
    const code = parseBrCode(body.payload)
    if (!code) {
      ctx.addIssue({
        code: 'custom',
        path: ['payload'],
        message: 'must be a valid BR Code (format and CRC)',
        params: valueError('invalid BR Code'),
      })
    } else if (code.amount !== undefined && code.amount !== body.amount) {
      const message = 'the BR Code amount (field 54) differs from amount'
      ctx.addIssue({ code: 'custom', path: ['payload'], message, params: valueError(message) })
    }
  })
  .openapi('ChargeRequest', { example: { amount: 1000, description: 'Pedido 1234' } })

/**
 * The documents' examples are what a sandbox answers when started with SEED=docs
 * START_TIME=2026-03-01T12:00:00Z PUBLIC_URL=http://localhost:8080 and called with the request
 * examples (byte-identical on every such start): the default scenario's first charge, transfer...
 */
export const EXAMPLE_CHARGE_ID = '087HVGqaTg0ZvRMkeazdQv9xe49IswOY'
/** The first charge's code. */
export const EXAMPLE_QR_CODE =
  '00020101021226720014br.gov.bcb.pix2550localhost:8080/pix/qr/v2/0hg91vteyo012o1e5m0skm6m3520400005303986540510.005802BR5917Loja Exemplo Ltda6009Sao Paulo62070503***6304DE80'

/** The first charge, as the contract answered it. */
export const CHARGE_RESPONSE_EXAMPLE = {
  status: 'pending' as const,
  transaction_id: EXAMPLE_CHARGE_ID,
  qr_code: EXAMPLE_QR_CODE,
  qr_code_name: 'Loja Exemplo Ltda #1',
  expiration_date: '2026-03-01T10:00:00',
}

export const ChargeResponse = z
  .object({
    status: z.literal('pending'),
    transaction_id: z.string().openapi({ example: 'k3Jd9QmZ0aLx7VbN2cYt5WsR8eUo1PfG' }),
    qr_code: z.string().openapi({ description: 'BR Code "copia e cola" (EMV MPM).' }),
    qr_code_name: z.string(),
    expiration_date: z
      .string()
      .openapi({ example: '2026-03-01T10:30:45', description: 'YYYY-MM-DDTHH:MM:SS, local time.' }),
  })
  .openapi('ChargeResponse', { example: CHARGE_RESPONSE_EXAMPLE })

export const TransferRequest = z
  .object({
    amount,
    pix_key: z.string({ error: 'must be a string' }).openapi({ example: 'maria@example.com' }),
    pix_type: z.enum(PIX_TYPES, { error: `must be one of ${PIX_TYPES.join(', ')}` }),
    description,
  })
  .superRefine((body, ctx) => {
    if (ctx.issues.length) return
    const problem = pixKeyProblem(body.pix_type, body.pix_key)
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: ['pix_key'],
        message: problem,
        params: valueError(`pix_key ${problem}`),
      })
  })
  .openapi('TransferRequest', {
    example: {
      amount: 2500,
      pix_key: 'maria@example.com',
      pix_type: 'EMAIL',
      description: 'Pagamento fornecedor',
    },
  })

export const TransferResponse = z
  .object({
    status: z.enum(TRANSFER_STATUSES),
    transaction_id: z.string().openapi({ example: 'E00000000202603011230aB3dE5fG7hJ' }),
    message: z.string(),
  })
  .openapi('TransferResponse', {
    example: {
      status: 'success',
      transaction_id: 'E00000000202603011200000002Fln5I',
      message: 'Transfer completed',
    },
  })

export const CompanyResponse = z
  .object({
    api_active: z.boolean(),
    created_at: z.string().openapi({ example: '2026-03-01T12:30:45.123456Z' }),
    updated_at: z.string().openapi({ example: '2026-03-01T12:30:45.123456Z' }),
  })
  .openapi('Company', {
    example: {
      api_active: true,
      created_at: '2026-03-01T12:00:00.000000Z',
      updated_at: '2026-03-01T12:00:00.000000Z',
    },
  })

export const ErrorResponse = z
  .object({ detail: z.string() })
  .openapi('Error', { example: { detail: 'Not authenticated' } })

/** What a charge or a transfer of amount 0 is answered (the default `validation_errors` style). */
export const INVALID_BODY_EXAMPLE = { detail: 'amount: must be an integer greater than 0' }

export const ValidationError = z
  .object({
    detail: z.union([
      z.string(),
      z.array(
        z.object({
          type: z.string(),
          loc: z.array(z.union([z.string(), z.number()])),
          msg: z.string(),
          input: z.any(),
          ctx: z.record(z.string(), z.any()).optional(),
        }),
      ),
    ]),
  })
  .openapi('ValidationError', { example: INVALID_BODY_EXAMPLE })
