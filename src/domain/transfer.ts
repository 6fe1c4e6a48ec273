// Transfer rules: balance, then the destination key, then the outcome; and settlement
// (docs/CONTRACT.md#where-the-contract-is-silent: business order, money).
import type { Micros } from '../clock.js'
import { AppError, conflict } from './errors.js'
import { SECOND_US } from './time.js'
import type {
  PixKeyEntry,
  PixType,
  Settings,
  SettledStatus,
  Transfer,
  TransferOutcome,
  TransferRule,
  TransferStatus,
} from './types.js'

export const TRANSFER_MESSAGES: Record<TransferStatus, string> = {
  success: 'Transfer completed',
  pending: 'Transfer is being processed',
  failed: 'Transfer failed',
}
export const INSUFFICIENT_BALANCE = 'Insufficient balance'
export const KEY_NOT_FOUND = 'Pix key not found or inactive'

export interface TransferRequest {
  amount: number
  pixKey: string
  pixType: PixType
}

export interface TransferDecision {
  status: TransferStatus
  message: string
  /** Whether the amount leaves the balance now (success and pending do; failed does not). */
  debit: boolean
  settleAt: Micros | null
  finalStatus: SettledStatus | null
  finalMessage: string | null
  /** Which source chose the outcome; a queued outcome is used up only when it was chosen. */
  source: 'balance' | 'key' | 'header' | 'queued' | 'rule' | 'default'
}

export interface OutcomeSources {
  header?: TransferOutcome
  queued?: TransferOutcome
  rule?: TransferOutcome
}

export function firstTransferRule(
  rules: TransferRule[],
  t: TransferRequest,
): TransferRule | undefined {
  return rules.find(
    ({ when }) =>
      (when.pix_key === undefined || when.pix_key === t.pixKey) &&
      (when.pix_type === undefined || when.pix_type === t.pixType) &&
      (when.amount === undefined || when.amount === t.amount) &&
      (when.amount_gte === undefined || t.amount >= when.amount_gte),
  )
}

const failed = (message: string, source: TransferDecision['source']): TransferDecision => ({
  status: 'failed',
  message,
  debit: false,
  settleAt: null,
  finalStatus: null,
  finalMessage: null,
  source,
})

/** Decides a new transfer; throws `insufficient_balance` when the scenario rejects such requests. */
export function decideTransfer(
  t: TransferRequest,
  balance: number,
  key: PixKeyEntry | undefined,
  settings: Settings,
  sources: OutcomeSources,
  now: Micros,
): TransferDecision {
  if (balance < t.amount) {
    if (settings.insufficient_balance === 'reject') throw new AppError('insufficient_balance')
    return failed(INSUFFICIENT_BALANCE, 'balance')
  }
  if (key ? !key.active : settings.unknown_pix_keys === 'reject')
    return failed(KEY_NOT_FOUND, 'key')
  const [source, outcome]: [TransferDecision['source'], TransferOutcome] = sources.header
    ? ['header', sources.header]
    : sources.queued
      ? ['queued', sources.queued]
      : sources.rule
        ? ['rule', sources.rule]
        : ['default', { status: 'success' }]
  const message = outcome.message ?? TRANSFER_MESSAGES[outcome.status]
  if (outcome.status === 'failed') return failed(message, source)
  const pending = outcome.status === 'pending'
  const finalStatus = pending ? (outcome.final_status ?? 'success') : null
  return {
    status: outcome.status,
    message,
    debit: true,
    settleAt:
      pending && outcome.settle_after_seconds !== undefined
        ? now + outcome.settle_after_seconds * SECOND_US
        : null,
    finalStatus,
    finalMessage: pending ? (outcome.final_message ?? TRANSFER_MESSAGES[finalStatus!]) : null,
    source,
  }
}

export interface Settlement {
  status: SettledStatus
  message: string
  /** Amount to give back to the balance: a failed settlement reverses the debit. */
  refund: number
}

export function settleTransfer(t: Transfer, status: SettledStatus, message?: string): Settlement {
  if (t.status !== 'pending') throw conflict(`Transfer is ${t.status}`)
  return {
    status,
    message: message ?? TRANSFER_MESSAGES[status],
    refund: status === 'failed' ? t.amount : 0,
  }
}
