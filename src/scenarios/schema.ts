// The scenario document (docs/CONTROL-PLANE.md#scenario-files), as one zod schema: it validates
// files and inline documents, and the JSON Schema that editors use is generated from it
// (npm run schema).
import { z } from '@hono/zod-openapi'
import { MAX_AMOUNT } from '../domain/money.js'
import {
  ENVIRONMENTS,
  OPERATIONS,
  PIX_TYPES,
  SETTLED_STATUSES,
  TRANSFER_STATUSES,
} from '../domain/enums.js'
import { MAX_PIX_KEY_LENGTH, pixKeyProblem } from '../pix/keys.js'
import { seconds, settingsSchema } from './settings.js'

const id = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1-64 characters of letters, digits, ".", "_" or "-"',
  )
const operation = z.enum(OPERATIONS)
const pixType = z.enum(PIX_TYPES)
const amount = z.int().min(1).max(MAX_AMOUNT)

export const providerSchema = z
  .object({
    name: z.string().min(1).max(100).meta({ description: "The Provider's name." }),
    operations: z.array(operation).max(2).meta({
      description: 'What it supports: charge, transfer; an operation missing answers 501.',
    }),
  })
  .strict()
  .meta({ description: 'A Provider: its name and the operations it supports.' })

const credential = z
  .object({
    client_id: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^:\s]+$/, 'must not contain ":" or spaces'),
    client_secret: z.string().min(1).max(200),
    environment: z.enum(ENVIRONMENTS).default('sandbox'),
    revoked: z.boolean().default(false),
  })
  .strict()

const user = z
  .object({
    id,
    name: z.string().min(1).max(100).optional(),
    balance: z
      .int()
      .min(0)
      .max(MAX_AMOUNT)
      .default(0)
      .meta({ description: 'Opening balance in cents.' }),
    permissions: z.array(operation).default([...OPERATIONS]),
    providers: z
      .object({
        in: providerSchema.nullable().optional(),
        out: providerSchema.nullable().optional(),
      })
      .strict()
      .default({})
      .meta({ description: 'At most one Provider per direction; omitted means none.' }),
    credentials: z.array(credential).default([]),
  })
  .strict()

const company = z
  .object({
    id,
    name: z.string().min(1).max(100),
    city: z.string().min(1).max(60).default('Sao Paulo'),
    api_active: z.boolean().default(true),
    users: z.array(user).default([]),
  })
  .strict()

const pixKey = z
  .object({
    key: z.string().min(1).max(77),
    type: pixType,
    active: z.boolean().default(true),
    owner_name: z.string().max(100).optional(),
  })
  .strict()
  .superRefine((k, ctx) => {
    const problem = pixKeyProblem(k.type, k.key)
    if (problem)
      ctx.addIssue({ code: 'custom', path: ['key'], message: `${k.type} key ${problem}` })
  })

const transferStatus = z.enum(TRANSFER_STATUSES)
export const transferOutcomeSchema = z
  .object({
    status: transferStatus.meta({ description: 'What the contract answers.' }),
    message: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "The message it answers (default: the status's own)." }),
    settle_after_seconds: seconds
      .optional()
      .meta({ description: 'For pending: settle on its own this many virtual seconds later.' }),
    final_status: z
      .enum(SETTLED_STATUSES)
      .optional()
      .meta({ description: 'For pending: what it settles as (default success); failed refunds.' }),
    final_message: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'For pending: the message it settles with.' }),
  })
  .strict()

export const chargeRuleSchema = z
  .object({
    when: z
      .object({
        amount: amount
          .optional()
          .meta({ description: 'A charge of exactly this amount, in cents.' }),
        description_contains: z
          .string()
          .min(1)
          .max(140, "must be at most 140 characters (a description's length)")
          .optional()
          .meta({ description: 'A charge whose description contains this text.' }),
      })
      .strict()
      .meta({
        description:
          'Which charges it applies to: all of its conditions hold (none: every charge).',
      }),
    then: z
      .object({
        auto_pay_after_seconds: seconds
          .optional()
          .meta({ description: 'Paid on its own this many virtual seconds after creation.' }),
        auto_cancel_after_seconds: seconds
          .optional()
          .meta({ description: 'Cancelled on its own this many virtual seconds after creation.' }),
      })
      .strict()
      .meta({ description: 'What happens to such a charge.' }),
  })
  .strict()

export const transferRuleSchema = z
  .object({
    when: z
      .object({
        pix_key: z
          .string()
          .min(1)
          .max(MAX_PIX_KEY_LENGTH, `must be at most ${MAX_PIX_KEY_LENGTH} characters`)
          .optional()
          .meta({ description: 'A transfer to exactly this key.' }),
        pix_type: pixType.optional().meta({ description: 'A transfer to a key of this type.' }),
        amount: amount
          .optional()
          .meta({ description: 'A transfer of exactly this amount, in cents.' }),
        amount_gte: amount
          .optional()
          .meta({ description: 'A transfer of at least this amount, in cents.' }),
      })
      .strict()
      .meta({
        description:
          'Which transfers it applies to: all of its conditions hold (none: every transfer).',
      }),
    then: transferOutcomeSchema.meta({ description: 'What such a transfer answers.' }),
  })
  .strict()

const rules = z
  .object({
    charges: z.array(chargeRuleSchema).default([]),
    transfers: z.array(transferRuleSchema).default([]),
  })
  .strict()

export type Provider = z.output<typeof providerSchema>
export type TransferOutcome = z.output<typeof transferOutcomeSchema>
export type ChargeRule = z.output<typeof chargeRuleSchema>
export type TransferRule = z.output<typeof transferRuleSchema>
export type Rules = z.output<typeof rules>

export const scenarioSchema = z
  .object({
    $schema: z.string().max(2048).optional(),
    description: z.string().max(2000).default(''),
    settings: settingsSchema.default({}),
    companies: z.array(company).default([]),
    pix_keys: z.array(pixKey).default([]),
    rules: rules.default({ charges: [], transfers: [] }),
  })
  .strict()
  .superRefine(uniqueIds)

export type Scenario = z.output<typeof scenarioSchema>

/** Ids must be unique across the document: companies, users and client ids. */
function uniqueIds(s: { companies: z.output<typeof company>[] }, ctx: z.RefinementCtx): void {
  const seen = { company: new Set<string>(), user: new Set<string>(), client: new Set<string>() }
  s.companies.forEach((c, ci) => {
    if (seen.company.has(c.id))
      ctx.addIssue({
        code: 'custom',
        path: ['companies', ci, 'id'],
        message: `duplicate company id "${c.id}"`,
      })
    seen.company.add(c.id)
    c.users.forEach((u, ui) => {
      if (seen.user.has(u.id))
        ctx.addIssue({
          code: 'custom',
          path: ['companies', ci, 'users', ui, 'id'],
          message: `duplicate user id "${u.id}"`,
        })
      seen.user.add(u.id)
      u.credentials.forEach((cr, ki) => {
        const path = ['companies', ci, 'users', ui, 'credentials', ki, 'client_id']
        if (seen.client.has(cr.client_id))
          ctx.addIssue({ code: 'custom', path, message: `duplicate client_id "${cr.client_id}"` })
        seen.client.add(cr.client_id)
      })
    })
  })
}
