// The hows of one company's own report: what that company's credentials do to meet each
// behaviour. The catalog's hows (catalog.ts) are the default scenario's, for the report of every
// company together; in a tenant's report, "as sandbox-client:sandbox-secret" would meet the
// behaviour in another company's report, and inactive:inactive-secret belongs to another company
// altogether. So a company's own report names its client id (its secret is stored hashed: the
// how says where it goes) and, where the default scenario lends a credential of its own (an
// inactive company, a user without Providers, an empty balance), the control call that puts
// this company in that state.
import { BEHAVIOURS, MAIN, type BehaviourId } from './catalog.js'

/** The company a report is for, by one of its sandbox credentials. */
export interface Own {
  companyId: string
  userId: string
  clientId: string
}

const CHARGE = 'POST /api/v1/hub/transactions/in {"amount": 1000}'
const TRANSFER =
  'POST /api/v1/hub/transactions/out {"amount": 1000, "pix_key": "maria@example.com", "pix_type": "EMAIL"}'
const CALL = { charge: CHARGE, transfer: TRANSFER } as const

/** The hows that a company's own credentials cannot follow as the catalog words them. */
function special(id: BehaviourId, o: Own, me: string): string | undefined {
  const [op] = id.split('.') as ['charge' | 'transfer']
  switch (id) {
    case 'charge.forbidden':
    case 'transfer.forbidden':
      return `PATCH /_sandbox/companies/${o.companyId} {"api_active": false} (admin token), then ${CALL[op]} as ${me}; PATCH it back to true`
    case 'charge.no_provider':
    case 'transfer.no_provider':
      return `PUT /_sandbox/users/${o.userId}/providers {"in": null, "out": null} (admin token), then ${CALL[op]} as ${me}; PUT them back`
    case 'transfer.unsupported':
      return `POST /_sandbox/faults {"operation": "transfer", "status": 501, "times": 1}, then ${TRANSFER} as ${me}`
    case 'transfer.insufficient_balance':
      return `${TRANSFER} as ${me} while its balance is under 1000 (a new tenant's is 0; PUT /_sandbox/users/${o.userId}/balance {"amount": 0})`
    default:
      return undefined
  }
}

/** Every behaviour's how for `o`'s own report, in catalog order. */
export function ownHows(o: Own): string[] {
  const me = `${o.clientId}:<client_secret>`
  return BEHAVIOURS.map(
    (b) =>
      special(b.id, o, me) ??
      b.how
        .replaceAll(MAIN, me)
        .replaceAll('sandbox-client:wrong-secret', `${o.clientId}:wrong-secret`),
  )
}
