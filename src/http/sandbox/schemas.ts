// The control plane's shared shapes: query strings, pages, ids, and the fields several records
// share. Each record's own schema sits beside its mapper in records/.
import { z } from '@hono/zod-openapi'
import { MAX_AMOUNT } from '../../domain/money.js'
import { isoMicros } from '../../domain/time.js'
import { PIX_TYPES } from '../../domain/types.js'
import { providerSchema, transferOutcomeSchema } from '../../scenarios/schema.js'

/** An instant as the control plane writes it: ISO 8601 UTC with microseconds. */
export const iso = z.string().openapi({ example: '2026-03-01T12:30:45.123456Z' })
export const isoOrNull = iso.nullable()
export const maybeIso = (us: number | null): string | null => (us === null ? null : isoMicros(us))
export const amount = z.int().min(1).max(MAX_AMOUNT)
export const pixType = z.enum(PIX_TYPES)

export const Detail = z
  .object({ detail: z.string().openapi({ description: 'What was refused and why.' }) })
  .openapi('SandboxError')

/** A declaration's JSON request body (required unless `required` is false). */
export const jsonBody = <S extends z.ZodType>(schema: S, required = true) => ({
  required,
  content: { 'application/json': { schema } },
})
/** A declaration's JSON answer; `examples` (by name) where the schema's own example does not say what this answer is. */
export const jsonAnswer = <S extends z.ZodType>(
  description: string,
  schema: S,
  examples?: Record<string, { summary: string; value: unknown }>,
) => ({
  description,
  content: { 'application/json': { schema, ...(examples && { examples }) } },
})

export const listQuery = z
  .object({
    company_id: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().optional(),
  })
  .strict()

/** A page of `item`s; its example is a last page holding `examples` (the item's own). */
export const page = <T extends z.ZodType>(item: T, ...examples: unknown[]) =>
  z
    .object({
      data: z.array(item).openapi({ description: "This page's items." }),
      next_cursor: z
        .string()
        .nullable()
        .openapi({ description: 'Pass as `cursor` for the next page; null on the last one.' }),
    })
    .openapi({ example: { data: examples, next_cursor: null } })

export const Payer = z
  .object({
    name: z
      .string()
      .min(1)
      .max(140)
      .openapi({ description: "The payer's name.", example: 'Maria Souza' }),
    document: z
      .string()
      .regex(/^\d{11}$|^\d{14}$/, 'must be a CPF (11 digits) or a CNPJ (14 digits)')
      .openapi({
        description: "The payer's CPF (11 digits) or CNPJ (14 digits).",
        example: '52998224725',
      }),
  })
  .openapi('Payer')

/** The fields charges and transfers share. */
export const moneyRecord = {
  transaction_id: z.string().openapi({
    description: 'The id the contract answered (`transaction_id`); the path id of this record.',
  }),
  company_id: z.string().openapi({ description: 'The company that created it.' }),
  user_id: z.string().openapi({ description: 'The user whose credentials created it.' }),
  amount: z.int().openapi({ description: 'Cents (1000 = R$ 10,00).' }),
  description: z.string().nullable().openapi({ description: 'The description sent, if any.' }),
}

/**
 * A registered shape or null. Not `.nullable()`: on a named schema, the OpenAPI generator makes
 * the component itself nullable (every use of it, and the clients generated from the document).
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()])

export const Provider = providerSchema.openapi('Provider')
export const Outcome = transferOutcomeSchema

/**
 * A path's id, with the id of the documents' story as its example: the examples' story
 * (test/http/examples-story.test.ts) calls each operation with these, and the scope check walks every
 * route with them (test/sandbox/access.test.ts), so a route's id needs one to be declared.
 */
export const idParam = <N extends string>(name: N, example: string) =>
  z.object({ [name]: z.string().min(1).max(200).openapi({ example }) } as Record<N, z.ZodString>)
