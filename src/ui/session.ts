// Dashboard sessions: a random id in a signed, HttpOnly, SameSite=Strict cookie that expires,
// and the session itself kept in memory (so sign-out really ends it, and a restart ends all).
// A company session is checked against the store on every request: a revoked or deleted
// credential (or a reset that removed it) ends it.
import { randomBytes } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie'
import type { Scope } from '../http/env.js'
import { companyScope } from '../http/sandbox/scope.js'
import { NO_HASH } from '../store/identity.js'
import type { Store } from '../store/index.js'

export const COOKIE = 'pix_sandbox_ui'
export const UI_BASE = '/_sandbox/ui'
// Real time on purpose (not the virtual clock): a session lasts a working day of the person's.
const MAX_AGE_S = 8 * 3600
const MAX_SESSIONS = 1000

export interface Flash {
  kind: 'ok' | 'error'
  text: string
  /** Values shown once with copy buttons (a new company's secret). */
  reveal?: [string, string][]
}

interface Session {
  who: { admin: true } | { admin: false; clientId: string }
  expires: number
  flash?: Flash
}

export interface SignedIn {
  id: string
  scope: Scope
  session: Session
}

export function createSessions(store: Store) {
  const key = randomBytes(32).toString('base64url')
  const sessions = new Map<string, Session>()

  const scopeOf = (s: Session): Scope | null => {
    if (s.who.admin) return { admin: true }
    const check = store.identity.credentialCheck(s.who.clientId, NO_HASH)
    const principal = check.known && !check.revoked && check.environment === 'sandbox' ? store.identity.principal(s.who.clientId) : undefined
    return principal ? companyScope(principal) : null
  }

  return {
    async start(c: Context, who: Session['who']): Promise<void> {
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!)
      const id = randomBytes(24).toString('base64url')
      sessions.set(id, { who, expires: Date.now() + MAX_AGE_S * 1000 })
      await setSignedCookie(c, COOKIE, id, key, { httpOnly: true, sameSite: 'Strict', path: UI_BASE, maxAge: MAX_AGE_S })
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
