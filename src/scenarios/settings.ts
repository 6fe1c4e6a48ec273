// The sandbox's settings (docs/CONTROL-PLANE.md#scenario-files): each field's rule and default,
// written once. The domain's `Settings` type and `DEFAULT_SETTINGS` derive from here; a
// scenario's `settings` is the same fields, each optional.
import { z } from '@hono/zod-openapi'
import { isValidTimeZone } from '../domain/time.js'

export const seconds = z
  .int()
  .min(0)
  .max(10 * 365 * 86400)

/**
 * Every setting with its default: the one place a default is written. `DEFAULT_SETTINGS` is
 * this parsed from nothing; a scenario's `settings` is the same fields, each optional (a file
 * sets only what it changes, and settings merge key by key).
 */
const settingFields = {
  charge_ttl_seconds: z
    .int()
    .min(1)
    .max(10 * 365 * 86400)
    .default(3600)
    .meta({
      description:
        'How long a charge stays payable, in seconds: expiration_date = creation + this.',
    }),
  timezone: z
    .string()
    .refine(isValidTimeZone, 'must be an IANA time zone such as America/Sao_Paulo')
    .default('America/Sao_Paulo')
    .meta({
      description:
        'The time zone of expiration_date (local time without an offset, as the contract writes it) and of the dashboard.',
    }),
  validation_errors: z.enum(['simple', 'fastapi']).default('simple').meta({
    description:
      'simple: {"detail": "<field>: <reason>"}; fastapi: the list of pydantic errors the real server\'s framework sends.',
  }),
  strict_content_type: z.boolean().default(true).meta({
    description:
      'true: a contract body is read as JSON only with a JSON Content-Type (application/json or application/*+json), as FastAPI 0.132 and later do; false: a body without Content-Type is read as JSON too, as FastAPI 0.122-0.131 did.',
  }),
  insufficient_balance: z.enum(['reject', 'failed']).default('reject').meta({
    description:
      'reject: 422 "Insufficient balance"; failed: 200 with status failed, recorded, no debit.',
  }),
  unknown_pix_keys: z.enum(['accept', 'reject']).default('accept').meta({
    description:
      'What a transfer to a key missing from pix_keys does: accept it, or fail it ("Pix key not found or inactive").',
  }),
  outcome_header: z
    .boolean()
    .default(true)
    .meta({ description: 'Honour the X-Sandbox-Outcome request header on transfers.' }),
  webhook_retry_seconds: z.array(seconds).min(1).max(20).default([1, 5, 30, 120, 600]).meta({
    description:
      'The delay before each webhook retry, in virtual seconds; its length is the number of retries.',
  }),
}
type SettingFields = typeof settingFields
const allSettings = z.object(settingFields)
export type Settings = z.output<typeof allSettings>

export const DEFAULT_SETTINGS: Settings = Object.freeze(allSettings.parse({}))

/** The settings in force, every field set: what the control plane answers (GET /scenario). */
export const settingsInForceSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingFields).map(([key, field]) => [
        key,
        field.unwrap().meta({ description: field.meta()?.description }),
      ]),
    ) as {
      [K in keyof SettingFields]: ReturnType<SettingFields[K]['unwrap']>
    },
  )
  .strict()

/** A scenario's settings: each field optional, its default shown to editors but not applied. */
export const settingsSchema = z
  .object(
    Object.fromEntries(
      Object.entries(settingFields).map(([key, field]) => [
        key,
        field
          .unwrap()
          .optional()
          .meta({ ...field.meta(), default: field.def.defaultValue }),
      ]),
    ) as { [K in keyof SettingFields]: z.ZodOptional<ReturnType<SettingFields[K]['unwrap']>> },
  )
  .strict()
