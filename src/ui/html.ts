// Renders a page to the plain string it is answered as. Two things about how hono/jsx and
// @hono/node-server work would otherwise slow every later request of the process, the contract's
// included, by a fifth to a quarter after a single page view (docs/PERFORMANCE.md):
// - hono/jsx renders inside an AsyncLocalStorage when it finds one, so that async components
//   keep their context across awaits. Before Node 24, a storage's first run() installs promise
//   hooks for the rest of the process: from then on every promise pays an init hook. Our pages
//   are synchronous components; hono/jsx's fallback for runtimes without the storage renders them
//   the same, so the storage is hidden from it while it looks for one (on its first render).
// - `c.html(<Page/>)` answers with the String object JSX gives; node-server only fast-paths
//   primitive strings, and builds and streams a full web Response for anything else.
import type { Context } from 'hono'
import type { JSX } from 'hono/jsx/jsx-runtime'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { HtmlEscapedCallbackPhase, resolveCallback } from 'hono/utils/html'

type BuiltinLookup = { getBuiltinModule?: unknown }

function withoutAsyncLocalStorage<T>(render: () => T): T {
  const host = process as BuiltinLookup
  const lookup = host.getBuiltinModule
  host.getBuiltinModule = undefined
  try {
    return render()
  } finally {
    host.getBuiltinModule = lookup
  }
}

export async function htmlPage(c: Context<any>, page: JSX.Element, status: ContentfulStatusCode = 200): Promise<Response> {
  const rendered = withoutAsyncLocalStorage(() => resolveCallback(page, HtmlEscapedCallbackPhase.Stringify, false, {}))
  return c.html(`${await rendered}`, status)
}
