// Which charge a copy-and-paste code points at, as a payer's bank resolves it: a dynamic code by
// its location; a code reused as `payload` by the newest pending charge carrying exactly that
// code. A company resolves among its own charges only. The admin resolves among every company's,
// and when pending charges of several companies carry the code, it must name the one to pay:
// paying the newest of any company let one tenant take another's payment (issue 14).
import { LOCATION_PATH } from '../config.js'
import { AppError, conflict } from '../domain/errors.js'
import type { Charge } from '../domain/types.js'
import { parseBrCode } from '../pix/brcode.js'
import type { Context } from './context.js'

/** How many candidates an ambiguous code's 409 lists. */
const LISTED = 10
const noCharge = () => new AppError('not_found', 'No charge for this code')

export interface CodeLookup {
  /** Resolve among this company's charges only (a company's own credentials). */
  companyId?: string
  /** The charge to pay among those carrying the code. */
  transactionId?: string
}

export function chargeForCode(
  ctx: Context,
  qrCode: string,
  { companyId, transactionId }: CodeLookup,
): Charge {
  const { charges } = ctx.store
  const code = parseBrCode(qrCode)
  if (!code)
    throw new AppError('invalid_input', 'qr_code: must be a valid BR Code (format and CRC)')
  const visible = (c: Charge | undefined) =>
    c && (companyId === undefined || c.companyId === companyId) ? c : undefined
  const chosen = (c: Charge | undefined) => {
    if (!c || (transactionId !== undefined && c.id !== transactionId)) throw noCharge()
    return c
  }

  const prefix = `${ctx.locationBase}${LOCATION_PATH}`
  const byLocation = code.location?.startsWith(prefix)
    ? charges.byLocation(code.location.slice(prefix.length))
    : undefined
  if (byLocation) return chosen(visible(byLocation))
  if (transactionId !== undefined) {
    const named = visible(charges.byId(transactionId))
    return chosen(named?.qrCode === qrCode ? named : undefined)
  }
  const newest = charges.newestPendingByCode(qrCode, companyId, LISTED + 1)
  if (newest.length > 1) {
    const listed = newest.slice(0, LISTED).join(', ') + (newest.length > LISTED ? ', ...' : '')
    throw conflict(
      `Pending charges of several companies carry this code; name the one to pay with transaction_id: ${listed}`,
    )
  }
  return chosen(newest[0] === undefined ? undefined : charges.byId(newest[0]))
}
