// The QA dashboard at /_sandbox/ui: server-rendered pages (hono/jsx) over the control plane and
// the contract, with one live stream. HTML only: none of it is in either OpenAPI document.
import { OpenAPIHono } from '@hono/zod-openapi'
import type { ErrorHandler } from 'hono'
import type { AppEnv, HttpDeps } from '../http/env.js'
import { sandboxApp } from '../http/sandbox/index.js'
import { controlClient, type Contract, type Control, type Send } from './control.js'
import { createLiveHub } from './live.js'
import { mountLiveStream } from './live-stream.js'
import { mountCharges } from './pages/charges.js'
import { mountObserve } from './pages/observe.js'
import { mountOverview } from './pages/overview.js'
import { mountReadiness } from './pages/readiness.js'
import { mountSend } from './pages/send.js'
import { mountTransfers } from './pages/transfers.js'
import { mountWebhooks } from './pages/webhooks.js'
import { createUiRouter } from './router.js'

export { UI_BASE } from './session.js'

export function createUi(
  deps: HttpDeps & { publicUrl: () => string },
  onError: ErrorHandler<AppEnv>,
  act: Send,
) {
  // Its own instance of the control plane's routes for reading, answering errors as the mounted
  // one does, built on the first page: a sandbox nobody looks at (a test suite's) does not start
  // slower. Actions go to the sandbox's app (`act`), journaled (control.ts).
  let client: ReturnType<typeof controlClient> | undefined
  const clientOnce = () => {
    if (!client) {
      const routes: OpenAPIHono<AppEnv> = sandboxApp(deps)
      routes.onError(onError)
      const app = new OpenAPIHono<AppEnv>()
      app.route('/', routes)
      app.onError(onError)
      client = controlClient((path, init, env) => app.request(path, init, env), act, deps.version)
    }
    return client
  }
  const control: Control = (...call) => clientOnce().control(...call)
  const contract: Contract = (...call) => clientOnce().contract(...call)
  // The sandbox tells of its changes only while a dashboard listens: none, no cost at all.
  const live = createLiveHub((active) => (deps.sandbox.onChange = active ? live.notify : undefined))
  const ui = createUiRouter(deps, { control, contract }, live)
  mountLiveStream(ui)
  for (const mount of [
    mountOverview,
    mountReadiness,
    mountCharges,
    mountTransfers,
    mountSend,
    mountWebhooks,
    mountObserve,
  ])
    mount(ui)
  return ui.app
}
