// The QA dashboard at /_sandbox/ui: server-rendered pages (hono/jsx) over the control plane,
// with one live stream. HTML only: none of it is in either OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { ErrorHandler } from 'hono'
import type { AppEnv, HttpDeps } from '../http/env.js'
import { sandboxApp } from '../http/sandbox/index.js'
import { controlClient, type Control } from './control.js'
import { createLiveHub } from './live.js'
import { mountLiveStream } from './live-stream.js'
import { mountCharges } from './pages/charges.js'
import { mountObserve } from './pages/observe.js'
import { mountOverview } from './pages/overview.js'
import { mountReadiness } from './pages/readiness.js'
import { mountTransfers } from './pages/transfers.js'
import { mountWebhooks } from './pages/webhooks.js'
import { createUiRouter } from './router.js'

export { UI_BASE } from './session.js'

export function createUi(
  deps: HttpDeps & { publicUrl: () => string },
  onError: ErrorHandler<AppEnv>,
) {
  // Its own instance of the control plane's routes, answering errors as the mounted one does,
  // built on the first page: a sandbox nobody looks at (a test suite's) does not start slower.
  let control: Control | undefined
  const controlOnce: Control = (...call) => {
    if (!control) {
      const routes: OpenAPIHono<AppEnv> = sandboxApp(deps)
      routes.onError(onError)
      // Its answers wait for the commit of what they wrote, as the mounted one's do (app.ts): a
      // commit the disk refuses is a 503, not a success shown for a write that was lost. The
      // outer one waits too late for that: the group has committed (or failed) by then.
      const app = new OpenAPIHono<AppEnv>()
      app.use(async (_c, next) => {
        await next()
        await deps.sandbox.store.pendingCommit()
      })
      app.route('/', routes)
      app.onError(onError)
      control = controlClient(app)
    }
    return control(...call)
  }
  // The sandbox tells of its changes only while a dashboard listens: none, no cost at all.
  const live = createLiveHub((active) => (deps.sandbox.onChange = active ? live.notify : undefined))
  const ui = createUiRouter(deps, controlOnce, live)
  mountLiveStream(ui)
  for (const mount of [
    mountOverview,
    mountReadiness,
    mountCharges,
    mountTransfers,
    mountWebhooks,
    mountObserve,
  ])
    mount(ui)
  return ui.app
}
