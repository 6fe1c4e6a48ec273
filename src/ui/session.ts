// Dashboard sessions: a random id in a signed, HttpOnly, SameSite=Strict cookie that expires,
// and the session itself kept in memory (so sign-out really ends it, and a restart ends all).
// A company session is checked against the store on every request: a revoked or deleted
// credential (or a reset that removed it) ends it. Sessions are bounded per person (fair-pool.ts):
// a company's sign-ins end its own oldest sessions, never the admin's or another company's.
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie'
import type { Principal } from '../domain/types.js'
import type { Scope } from '../http/env.js'
import { companyScope } from '../http/sandbox/scope.js'
import { NO_HASH } from '../store/identity.js'
import type { Store } from '../store/index.js'
import { ADMIN_OWNER, companyOwner, createFairPool, type FairLimits } from './fair-pool.js'

export const COOKIE = 'pix_sandbox_ui'
export const UI_BASE = '/_sandbox/ui'
// Real time on purpose (not the virtual clock): a session lasts a working day of the person's.
const MAX_AGE_S = 8 * 3600
/** Per company and for the admin (a team sharing a credential, several browsers each), and for all companies together. */
export const SESSION_LIMITS: FairLimits = { perOwner: 50, total: 2000, whenFull: 'evict-own' }

export interface Flash {
  kind: 'ok' | 'error'
  text: string
  /** Values shown once with copy buttons (a new company's secret). */
  reveal?: [string, string][]
  /** Details shown as a list (the receiver check, check by check). */
  lines?: string[]
  /** The form it is about (its id): that form shows it, rather than the top of the page. */
  form?: string
  /** What that form held when it was refused, to show again for correcting. */
  values?: Record<string, string>
}

interface Session {
  who: { admin: true } | { admin: false; clientId: string; companyId: string }
  expires: number
  flash?: Flash
}

export interface SignedIn {
  id: string
  scope: Scope
  session: Session
}

export function createSessions(store: Store, limits: FairLimits = SESSION_LIMITS) {
  const key = randomBytes(32).toString('base64url')
  const sessions = createFairPool<Session>(limits)

  /** The principal of a credential that may call the sandbox (known, not revoked, sandbox keys). */
  const principalOf = (clientId: string): Principal | undefined => {
    const check = store.identity.credentialCheck(clientId, NO_HASH)
    return check.known && !check.revoked && check.environment === 'sandbox'
      ? store.identity.principal(clientId)
      : undefined
  }
  const scopeOf = (s: Session): Scope | null => {
    if (s.who.admin) return { admin: true }
    const principal = principalOf(s.who.clientId)
    return principal ? companyScope(principal) : null
  }

  return {
    async start(c: Context, who: Session['who']): Promise<void> {
      // A browser that signs in again replaces its session rather than leaving it to linger.
      const previous = await getSignedCookie(c, key, COOKIE)
      if (previous) sessions.delete(previous)
      const id = randomBytes(24).toString('base64url')
      sessions.add(id, who.admin ? ADMIN_OWNER : companyOwner(who.companyId), {
        who,
        expires: Date.now() + MAX_AGE_S * 1000,
      })
      await setSignedCookie(c, COOKIE, id, key, {
        httpOnly: true,
        sameSite: 'Strict',
        path: UI_BASE,
        maxAge: MAX_AGE_S,
      })
    },

    /** The signed-in session of the request, or null (unknown, expired, or credentials gone). */
    async current(c: Context): Promise<SignedIn | null> {
      const id = await getSignedCookie(c, key, COOKIE)
      if (!id) return null
      const session = sessions.get(id)
      if (!session) return null
      const scope = session.expires > Date.now() ? scopeOf(session) : null
      if (!scope) {
        sessions.delete(id)
        return null
      }
      return { id, scope, session }
    },

    end(c: Context, id: string | undefined): void {
      if (id) sessions.delete(id)
      deleteCookie(c, COOKIE, { path: UI_BASE })
    },

    /**
     * The principal a contract call made from the dashboard carries: a credential the person may
     * act as (the admin any company's, a company its own), read now, so a company made inactive
     * or a Provider removed a moment ago shows in the answer. Undefined when it may not.
     */
    principalFor(scope: Scope, clientId: string): Principal | undefined {
      const principal = principalOf(clientId)
      return principal && (scope.admin || principal.company.id === scope.companyId)
        ? principal
        : undefined
    },

    /** Sets the message the next page shows once. */
    flash(s: SignedIn, flash: Flash): void {
      s.session.flash = flash
    },

    takeFlash(s: SignedIn): Flash | undefined {
      const f = s.session.flash
      s.session.flash = undefined
      return f
    },
  }
}

export type Sessions = ReturnType<typeof createSessions>
