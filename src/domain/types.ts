// The domain's vocabulary: plain types, no I/O. Money is integer cents, time epoch microseconds.
import type { Micros } from '../clock.js'

export type Operation = 'charge' | 'transfer'
export type Direction = 'in' | 'out'
export type Environment = 'sandbox' | 'production'
export type PixType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE'
export const PIX_TYPES: readonly PixType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE']

export interface Provider {
  name: string
  operations: Operation[]
}

/** The operation each direction carries: charges come in, transfers go out. */
export const DIRECTION_OF: Record<Operation, Direction> = { charge: 'in', transfer: 'out' }

export interface Company {
  id: string
  name: string
  city: string
  apiActive: boolean
  createdAt: Micros
  updatedAt: Micros
}

/** Who is calling: a credential, its user and the user's company, as authentication finds them. */
export interface Principal {
  clientId: string
  environment: Environment
  userId: string
  permissions: Operation[]
  providers: Partial<Record<Direction, Provider>>
  company: Company
}

export type ChargeStatus = 'pending' | 'paid' | 'cancelled'
export type CancelReason = 'expired' | 'cancelled'

export interface Payer {
  name: string
  document: string
}

export interface Charge {
  id: string
  companyId: string
  userId: string
  amount: number
  description: string | null
  status: ChargeStatus
  qrCode: string
  qrCodeName: string
  locationId: string
  createdAt: Micros
  expiresAt: Micros
  autoPayAt: Micros | null
  autoCancelAt: Micros | null
  paidAt: Micros | null
  cancelledAt: Micros | null
  cancelReason: CancelReason | null
  endToEndId: string | null
  payer: Payer | null
  revision: number
}

export type TransferStatus = 'success' | 'pending' | 'failed'

export interface Transfer {
  id: string
  companyId: string
  userId: string
  amount: number
  description: string | null
  pixKey: string
  pixType: PixType
  status: TransferStatus
  message: string
  createdAt: Micros
  settleAt: Micros | null
  finalStatus: 'success' | 'failed' | null
  finalMessage: string | null
  settledAt: Micros | null
}

export interface PixKeyEntry {
  key: string
  type: PixType
  active: boolean
  ownerName: string | null
}

export interface Settings {
  charge_ttl_seconds: number
  timezone: string
  validation_errors: 'simple' | 'fastapi'
  insufficient_balance: 'reject' | 'failed'
  unknown_pix_keys: 'accept' | 'reject'
  outcome_header: boolean
  webhook_retry_seconds: number[]
}

export const DEFAULT_SETTINGS: Settings = {
  charge_ttl_seconds: 3600,
  timezone: 'America/Sao_Paulo',
  validation_errors: 'simple',
  insufficient_balance: 'reject',
  unknown_pix_keys: 'accept',
  outcome_header: true,
  webhook_retry_seconds: [1, 5, 30, 120, 600],
}

export interface ChargeRule {
  when: { amount?: number; description_contains?: string }
  then: { auto_pay_after_seconds?: number; auto_cancel_after_seconds?: number }
}

export interface TransferOutcome {
  status: TransferStatus
  message?: string
  settle_after_seconds?: number
  final_status?: 'success' | 'failed'
  final_message?: string
}

export interface TransferRule {
  when: { pix_key?: string; pix_type?: PixType; amount?: number; amount_gte?: number }
  then: TransferOutcome
}

export interface Rules {
  charges: ChargeRule[]
  transfers: TransferRule[]
}

export interface SandboxEvent {
  id: string
  type: string
  at: Micros
  companyId: string | null
  data: Record<string, unknown>
}
