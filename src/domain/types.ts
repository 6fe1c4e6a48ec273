// The domain's vocabulary: plain types, no I/O. Money is integer cents, time epoch microseconds.
import type { Micros } from '../clock.js'
import type {
  ChargeRule,
  Provider,
  Rules,
  TransferOutcome,
  TransferRule,
} from '../scenarios/schema.js'
import type { Settings } from '../scenarios/settings.js'
import type {
  CancelReason,
  ChargeStatus,
  Environment,
  Operation,
  PixType,
  SettledStatus,
  TransferStatus,
} from './enums.js'

export type Direction = 'in' | 'out'
export {
  CANCEL_REASONS,
  CHARGE_STATUSES,
  ENVIRONMENTS,
  OPERATIONS,
  PIX_TYPES,
  SETTLED_STATUSES,
  TRANSFER_STATUSES,
} from './enums.js'
export type {
  CancelReason,
  ChargeStatus,
  Environment,
  Operation,
  PixType,
  SettledStatus,
  TransferStatus,
}

// Shapes a scenario file declares are defined by its schema (types only: nothing of zod is
// loaded here), so a field added there reaches every use of them.
export type { ChargeRule, Provider, Rules, Settings, TransferOutcome, TransferRule }

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
  finalStatus: SettledStatus | null
  finalMessage: string | null
  settledAt: Micros | null
}

export interface PixKeyEntry {
  key: string
  type: PixType
  active: boolean
  ownerName: string | null
}

export interface SandboxEvent {
  id: string
  type: string
  at: Micros
  companyId: string | null
  data: Record<string, unknown>
}
