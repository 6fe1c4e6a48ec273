// The domain's closed sets of values, each written once as a list: its type is the list's, and
// the schemas (zod enums of the control plane, the contract and scenario files), the dashboard's
// choices and the records all take the list, so a value added here reaches every one of them.
// It imports nothing, so that a schema can import it without importing the domain's types.

export const OPERATIONS = ['charge', 'transfer'] as const
export type Operation = (typeof OPERATIONS)[number]

export const ENVIRONMENTS = ['sandbox', 'production'] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export const PIX_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE'] as const
export type PixType = (typeof PIX_TYPES)[number]

export const CHARGE_STATUSES = ['pending', 'paid', 'cancelled'] as const
export type ChargeStatus = (typeof CHARGE_STATUSES)[number]

export const CANCEL_REASONS = ['expired', 'cancelled'] as const
export type CancelReason = (typeof CANCEL_REASONS)[number]

export const TRANSFER_STATUSES = ['success', 'pending', 'failed'] as const
export type TransferStatus = (typeof TRANSFER_STATUSES)[number]

/** What a pending transfer settles as (failed refunds). */
export const SETTLED_STATUSES = ['success', 'failed'] as const satisfies readonly TransferStatus[]
export type SettledStatus = (typeof SETTLED_STATUSES)[number]
