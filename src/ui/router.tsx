// The dashboard's router: assets, sign-in and sign-out, the session check, and two helpers every
// section uses: `page` (a GET rendered for the signed-in person) and `action` (a POST that calls
// the control plane and comes back with its answer, or its refusal's `detail`, as a message).
import { Hono, type Context } from 'hono'
import { csrf } from 'hono/csrf'
import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import { isoMicros } from '../domain/time.js'
import type { HttpDeps } from '../http/env.js'
import { readBodyText } from '../http/body.js'
import { scopeOwner } from '../http/body-owner.js'
import { PAGE_HEADERS } from '../http/page-headers.js'
import { detailOf, type Contract, type Control, type ControlReply } from './control.js'
import { htmlPage, renderHtml } from './html.js'
import { Page } from './layout.js'
import type { LiveHub } from './live.js'
import { JS } from './script.js'
import { createSessions, UI_BASE, type Flash, type SignedIn } from './session.js'
import { returnPath } from './return-path.js'
import { mountSignIn } from './sign-in.js'
import { CSS } from './style.js'
import { Refused, type View } from './view.js'

export type UiEnv = { Variables: { signedIn: SignedIn } }
export type Form = Record<string, string>

/** Fields a refused form keeps for the person to correct, and the length kept of each (a file's text is not kept). */
const KEPT_FIELDS = 20
const KEPT_LENGTH = 300
const kept = (form: Form): Form =>
  Object.fromEntries(
    Object.entries(form)
      .filter(([k, v]) => k !== 'file' && !k.endsWith(':file') && v.length <= KEPT_LENGTH)
      .slice(0, KEPT_FIELDS),
  )

export interface Rendered {
  title: string
  body: Child
  status?: 404 | 200
}

export interface Call {
  method: 'POST' | 'PUT' | 'DELETE' | 'PATCH'
  path: string
  body?: unknown
  /**
   * A contract call, made as this credential (a client_id the person may act as: a company its
   * own, the admin any): `path` is then under /api/v1. Otherwise a control call, under /_sandbox.
   */
  as?: string
  /** The message shown when the call succeeds, from its answer. */
  ok: (reply: ControlReply) => string | Flash
  /** The form it was sent from (its id): that form shows a refusal (FormFlash). */
  form?: string
  /** Where to go afterwards (default: back where the form was). */
  goTo?: (reply: ControlReply) => string
  /** The page the form is on: where to go back to when the form's `back` (and the Referer) will not do. */
  page?: string
}

export function createUiRouter(
  deps: HttpDeps & { publicUrl: () => string },
  clients: { control: Control; contract: Contract },
  live: LiveHub,
) {
  const ctx = deps.sandbox
  const sessions = createSessions(ctx.store)
  const app = new Hono<UiEnv>()

  app.use(async (c, next) => {
    await next()
    for (const [k, v] of Object.entries(PAGE_HEADERS))
      if (!c.res.headers.has(k)) c.res.headers.set(k, v)
  })
  // A form is read within the process's budget for bodies before anything reads it (the
  // sign-in form is read before anyone is signed in: body-budget.ts), a signed-in person's
  // within their company's share (or the admin's).
  const formOwner = (c: Context) =>
    sessions.current(c).then((s) => (s ? scopeOwner(deps, s.scope) : null))
  app.use(async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') await readBodyText(c, formOwner)
    await next()
  })
  // Cross-site form posts are refused (Origin checked against the dashboard's own).
  app.use(csrf())

  const asset = (body: string, type: string) => (c: Context) =>
    c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'no-cache' })
  app.get('/assets/ui.css', asset(CSS, 'text/css; charset=utf-8'))
  app.get('/assets/ui.js', asset(JS, 'text/javascript; charset=utf-8'))

  mountSignIn(app, deps, sessions)

  app.use(async (c, next) => {
    const signedIn = await sessions.current(c)
    if (!signedIn) {
      if (
        c.req.method === 'GET' &&
        c.req.header('x-ui-live') === undefined &&
        !c.req.path.endsWith('/live')
      ) {
        return c.redirect(`${UI_BASE}/sign-in?next=${encodeURIComponent(c.req.path)}`, 303)
      }
      return c.text('Not signed in', 401)
    }
    c.set('signedIn', signedIn)
    await next()
  })

  app.post('/sign-out', (c) => {
    sessions.end(c, c.get('signedIn').id)
    return c.redirect(`${UI_BASE}/sign-in`, 303)
  })

  const viewOf = (c: Context<UiEnv>, flash?: Flash): View => {
    const state = ctx.clock.state()
    return {
      scope: c.get('signedIn').scope,
      control: clients.control,
      tz: ctx.store.setup.settings().timezone,
      nowUs: ctx.clock.now(),
      now: isoMicros(ctx.clock.now()),
      frozen: state.frozenAtUs !== null,
      publicUrl: deps.publicUrl(),
      flash,
    }
  }

  /** Where a form may send the browser back to: its `back` field, the page it is on, the Referer, or the overview; a dashboard page, never elsewhere. */
  const backOf = (form: Form, c: Context, page?: string) =>
    returnPath(form.back) ??
    returnPath(page) ??
    returnPath(c.req.header('referer'), new URL(c.req.url).origin) ??
    UI_BASE

  const ui = {
    app,
    deps,
    live,
    /** A GET page; `section` is the navigation entry it belongs to. */
    page(
      path: string,
      section: string,
      render: (view: View, c: Context<UiEnv>) => Promise<Rendered> | Rendered,
    ) {
      app.get(path, async (c) => {
        const signedIn = c.get('signedIn')
        // A live refresh re-renders the page without taking the flash meant for the next page.
        const flash =
          c.req.header('x-ui-live') === undefined ? sessions.takeFlash(signedIn) : undefined
        const view = viewOf(c, flash)
        let rendered: Rendered
        try {
          rendered = await render(view, c)
        } catch (err) {
          if (!(err instanceof Refused)) throw err
          view.flash = { kind: 'error', text: detailOf(err.reply) }
          rendered = {
            title: err.reply.status === 404 ? 'Not found' : 'Refused',
            body: (
              <p>
                <a href={UI_BASE}>Back to the overview</a>
              </p>
            ),
            status: err.reply.status === 404 ? 404 : 200,
          }
        }
        // The body first: a form in it may show the flash itself (FormFlash), not the frame.
        const body = raw(await renderHtml(rendered.body))
        return htmlPage(
          c,
          <Page view={view} title={rendered.title} section={section}>
            {body}
          </Page>,
          rendered.status ?? 200,
        )
      })
    },
    /** A POST: reads the form, asks the control plane, and redirects with the answer as the message. */
    action(
      path: string,
      call: (form: Form, view: View, c: Context<UiEnv>) => Call | Promise<Call>,
    ) {
      app.post(path, async (c) => {
        // A file (a scenario's) is its text, and `<name>:file` its name; the body was read
        // within the sandbox's body limit, as every request's is.
        const form: Form = {}
        for (const [k, v] of Object.entries(await c.req.parseBody())) {
          if (typeof v === 'string') form[k] = v
          else if (v instanceof File) {
            form[k] = await v.text()
            form[`${k}:file`] = v.name
          }
        }
        const signedIn = c.get('signedIn')
        const view = viewOf(c)
        let spec: Call
        try {
          spec = await call(form, view, c)
        } catch (err) {
          if (!(err instanceof Refused)) throw err
          sessions.flash(signedIn, {
            kind: 'error',
            text: detailOf(err.reply),
            ...(err.form && { form: err.form, values: kept(form) }),
            ...(err.lines && { lines: err.lines }),
          })
          return c.redirect(backOf(form, c), 303)
        }
        // Where to go is settled before acting: nothing after the change can fail on it.
        const back = backOf(form, c, spec.page)
        const refused = (text: string) => {
          sessions.flash(signedIn, {
            kind: 'error',
            text,
            ...(spec.form && { form: spec.form, values: kept(form) }),
          })
          return c.redirect(back, 303)
        }
        let reply: ControlReply
        if (spec.as === undefined) {
          reply = await clients.control(signedIn.scope, spec.method, spec.path, spec.body)
        } else {
          const principal = sessions.principalFor(signedIn.scope, spec.as)
          if (!principal) return refused(`${spec.as}: not a sandbox credential you may act as`)
          reply = await clients.contract(principal, spec.method, spec.path, spec.body)
        }
        if (!reply.ok)
          return refused(
            spec.as === undefined
              ? detailOf(reply)
              : `The contract answered ${reply.status}: ${detailOf(reply)}`,
          )
        const message = spec.ok(reply)
        sessions.flash(
          signedIn,
          typeof message === 'string' ? { kind: 'ok', text: message } : message,
        )
        return c.redirect(returnPath(spec.goTo?.(reply)) ?? back, 303)
      })
    },
  }
  return ui
}

export type Ui = ReturnType<typeof createUiRouter>
