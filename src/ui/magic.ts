// The magic values of the scenario in force (GET /_sandbox/scenario: its rules and inactive keys),
// said as a person would ("stays pending, then succeeds 60 s later"), once for the cheat sheet,
// the queued outcomes and the presets the New charge and Send a transfer forms offer by name.
import { MAX_AMOUNT } from '../domain/money.js'
import { INSUFFICIENT_BALANCE, KEY_NOT_FOUND } from '../domain/transfer.js'
import type { PixType } from '../domain/types.js'
import { brl } from './format.js'
import type { Answer } from './view.js'

type ScenarioInForce = Answer<'/scenario'>
type TransferRule = ScenarioInForce['rules']['transfers'][number]
type ChargeRule = ScenarioInForce['rules']['charges'][number]

/** What a preset fills in the form: the fields its condition names. */
export interface Preset {
  label: string
  fields: { pix_key?: string; pix_type?: string; amount?: number; description?: string }
}

/** A key of each type that passes the contract's format checks, for a rule on the type alone. */
const EXAMPLE_KEYS: Record<PixType, string> = {
  EMAIL: 'maria@example.com',
  CPF: '52998224725',
  CNPJ: '11222333000181',
  PHONE: '+5511987654321',
}

/** The type a key of a rule most likely has, from its shape (a rule names the key alone). */
export function keyType(key: string): PixType {
  if (key.includes('@')) return 'EMAIL'
  if (key.startsWith('+')) return 'PHONE'
  return /^\d{14}$/.test(key) ? 'CNPJ' : /^\d{11}$/.test(key) ? 'CPF' : 'EMAIL'
}

const seconds = (n: number) => `${n} s later`
/** An amount as people read it and as the API takes it: "R$ 6,66 (amount 666)". */
const cents = (n: number) => `${brl(n)} (amount ${n})`

type Then = {
  status: string
  message?: string | null
  settle_after_seconds?: number
  final_status?: string | null
}

/** What follows a transfer's status (a badge shows the status): its message, or how it settles. */
export function transferThen(then: Then): string {
  if (then.status !== 'pending') return then.message ?? ''
  if (then.settle_after_seconds === undefined) return 'until settled by hand'
  return (then.final_status ?? 'success') === 'failed'
    ? `then fails ${seconds(then.settle_after_seconds)} (refunded)`
    : `then succeeds ${seconds(then.settle_after_seconds)}`
}

/** What a transfer with this outcome does: "fails: <message>", "stays pending, then succeeds 60 s later". */
export function transferOutcome(then: Then): string {
  const rest = transferThen(then)
  const verb =
    then.status === 'failed' ? 'fails' : then.status === 'success' ? 'succeeds' : 'stays pending'
  return rest ? `${verb}${then.status === 'pending' ? ',' : ':'} ${rest}` : verb
}

/** Which transfers a rule applies to: "a transfer to pending@pix.example", "a transfer of R$ 6,66". */
export function transferCondition(when: TransferRule['when']): string {
  const parts = [
    when.pix_key !== undefined && `to ${when.pix_key}`,
    when.pix_type !== undefined && `to a ${when.pix_type} key`,
    when.amount !== undefined && `of ${cents(when.amount)}`,
    when.amount_gte !== undefined && `of ${cents(when.amount_gte)} or more`,
  ].filter(Boolean)
  return parts.length ? `a transfer ${parts.join(' ')}` : 'every transfer'
}

export function chargeCondition(when: ChargeRule['when']): string {
  const parts = [
    when.amount !== undefined && `of ${cents(when.amount)}`,
    when.description_contains !== undefined &&
      `whose description contains "${when.description_contains}"`,
  ].filter(Boolean)
  return parts.length ? `a charge ${parts.join(' ')}` : 'every charge'
}

export function chargeOutcome(then: ChargeRule['then']): string {
  if (then.auto_pay_after_seconds !== undefined)
    return `is paid ${seconds(then.auto_pay_after_seconds)} (as if a payer paid it)`
  if (then.auto_cancel_after_seconds !== undefined)
    return `is cancelled ${seconds(then.auto_cancel_after_seconds)}`
  return 'nothing special'
}

/**
 * A key no scenario is expected to list: the unknown key a transfer fails on under
 * `unknown_pix_keys: reject` (docs/CONTROL-PLANE.md#scenario-files).
 */
export const UNLISTED_KEY = 'not-in-the-directory@pix.example'

/**
 * What the settings make transfers do, as presets: more than the balance (the largest amount the
 * contract takes, more than any company holds unless it was paid that much), and an unknown key
 * when such keys are refused. test/sandbox/settings.test.ts: a setting that makes a transfer fail
 * offers a new preset that fails that way.
 */
function settingPresets({ settings }: ScenarioInForce): Preset[] {
  const overBalance = {
    label: `${settings.insufficient_balance === 'reject' ? `is refused: 422 ${INSUFFICIENT_BALANCE}` : `fails: ${INSUFFICIENT_BALANCE} (recorded, no debit)`}, a transfer of more than the balance: ${cents(MAX_AMOUNT)}`,
    fields: { amount: MAX_AMOUNT },
  }
  const unknown = {
    label: `fails: ${KEY_NOT_FOUND}, to ${UNLISTED_KEY} (a key not in the scenario's key directory)`,
    fields: { pix_key: UNLISTED_KEY, pix_type: 'EMAIL' },
  }
  return settings.unknown_pix_keys === 'reject' ? [overBalance, unknown] : [overBalance]
}

/** What the settings decide, the inactive keys, then the rules in the order they apply, each a preset of the fields it names. */
export function transferPresets(scenario: ScenarioInForce): Preset[] {
  const inactive = scenario.inactive_keys.map((k) => ({
    label: `fails: ${KEY_NOT_FOUND}, to ${k.key} (an inactive key)`,
    fields: { pix_key: k.key, pix_type: k.type },
  }))
  const rules = scenario.rules.transfers.map(({ when, then }) => {
    const type = when.pix_type ?? (when.pix_key === undefined ? undefined : keyType(when.pix_key))
    const fields: Preset['fields'] = {
      ...(type && { pix_type: type }),
      ...(when.pix_key !== undefined
        ? { pix_key: when.pix_key }
        : type && { pix_key: EXAMPLE_KEYS[type] }),
      ...((when.amount ?? when.amount_gte) !== undefined && {
        amount: when.amount ?? when.amount_gte,
      }),
    }
    return { label: `${transferOutcome(then)}, ${transferCondition(when)}`, fields }
  })
  return [...settingPresets(scenario), ...inactive, ...rules]
}

export function chargePresets(scenario: ScenarioInForce): Preset[] {
  return scenario.rules.charges.map(({ when, then }) => ({
    label: `${chargeOutcome(then)}, ${chargeCondition(when)}`,
    fields: {
      ...(when.amount !== undefined && { amount: when.amount }),
      ...(when.description_contains !== undefined && { description: when.description_contains }),
    },
  }))
}

/** A preset as the value of an option: its fields as a query string. */
export const presetValue = (p: Preset) =>
  new URLSearchParams(
    Object.entries(p.fields).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString()

/** The fields a chosen option names, the known ones only. */
export function presetFields(value: string | undefined): Preset['fields'] {
  const q = new URLSearchParams(value ?? '')
  const amount = q.get('amount')
  return {
    ...(q.has('pix_key') && { pix_key: q.get('pix_key')! }),
    ...(q.has('pix_type') && { pix_type: q.get('pix_type')! }),
    ...(amount !== null && /^\d{1,15}$/.test(amount) && { amount: Number(amount) }),
    ...(q.has('description') && { description: q.get('description')! }),
  }
}
