// Where a charge's and a transfer's pages are: what lists, forms and messages link to.
import { UI_BASE } from './session.js'

export const chargeHref = (id: string) => `${UI_BASE}/charges/${encodeURIComponent(id)}`
export const transferHref = (id: string) => `${UI_BASE}/transfers/${encodeURIComponent(id)}`
