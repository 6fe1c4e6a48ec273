// Sign-in: the admin token, or a company's client_id and client_secret, checked by the control
// plane's own rules (scope.ts); a refusal says "Not authenticated", as the control plane does.
import type { Hono } from 'hono'
import { AppError } from '../domain/errors.js'
import { ERRORS } from '../http/errors.js'
import type { HttpDeps } from '../http/env.js'
import { isAdminToken } from '../http/sandbox/scope.js'
import { htmlPage } from './html.js'
import { Document } from './layout.js'
import { returnPath } from './return-path.js'
import { UI_BASE, type Sessions } from './session.js'

const MAX_FIELD = 500

function SignInPage({ error, next }: { error?: string; next: string }) {
  return (
    <Document title="Sign in">
      <main class="signin">
        <h1>pix-sandbox dashboard</h1>
        {error && (
          <div class="flash error" role="alert">
            <p>{error}</p>
          </div>
        )}
        <section class="card">
          <h2>Admin</h2>
          <form method="post" action={`${UI_BASE}/sign-in`}>
            <input type="hidden" name="next" value={next} />
            <label>
              Admin token (SANDBOX_ADMIN_TOKEN, printed at start)
              <input type="password" name="token" autocomplete="off" required />
            </label>
            <button type="submit" class="primary">
              Sign in as admin
            </button>
          </form>
        </section>
        <section class="card">
          <h2>A company</h2>
          <form method="post" action={`${UI_BASE}/sign-in`}>
            <input type="hidden" name="next" value={next} />
            <label>
              Client id (client_id, e.g. sandbox-client)
              <input name="client_id" autocomplete="username" required />
            </label>
            <label>
              Client secret (client_secret)
              <input
                type="password"
                name="client_secret"
                autocomplete="current-password"
                required
              />
            </label>
            <button type="submit" class="primary">
              Sign in as this company
            </button>
          </form>
        </section>
      </main>
    </Document>
  )
}

/** Where to go once signed in: the page that sent the person here, or the overview. */
const safeNext = (next: unknown) => returnPath(next) ?? UI_BASE

export function mountSignIn(app: Hono<any>, deps: HttpDeps, sessions: Sessions): void {
  app.get('/sign-in', (c) => htmlPage(c, <SignInPage next={safeNext(c.req.query('next'))} />))

  app.post('/sign-in', async (c) => {
    const form = await c.req.parseBody()
    const field = (name: string) =>
      typeof form[name] === 'string' ? (form[name] as string).slice(0, MAX_FIELD) : ''
    const next = safeNext(form.next)
    const refuse = (detail: string) => htmlPage(c, <SignInPage error={detail} next={next} />, 401)
    const token = field('token').trim()
    if (token) {
      if (!isAdminToken(deps, token))
        return refuse(`${ERRORS.not_authenticated.detail}: this is not the admin token`)
      await sessions.start(c, { admin: true })
      return c.redirect(next, 303)
    }
    try {
      const principal = deps.authenticate(field('client_id'), field('client_secret'))
      await sessions.start(c, {
        admin: false,
        clientId: principal.clientId,
        companyId: principal.company.id,
      })
      return c.redirect(next, 303)
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      return refuse(
        `${err.detail ?? ERRORS[err.code].detail}: check the client_id and client_secret`,
      )
    }
  })
}
