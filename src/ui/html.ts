// Renders a page to the plain string it is answered as. Two things about how hono/jsx and
// @hono/node-server work would otherwise slow every later request of the process, the contract's
// included, by a fifth to a quarter after a single page view (docs/PERFORMANCE.md):
// - hono/jsx renders inside an AsyncLocalStorage when it finds one, so that async components
//   keep their context across awaits. Before Node 24, a storage's first run() installs promise
//   hooks for the rest of the process: from then on every promise pays an init hook. Our pages
//   are synchronous components, which hono/jsx's fallback for runtimes without the storage
//   renders the same. It looks for the storage once, at its first render, so that render happens
//   here, at import, with both ways it looks hidden (see `firstRenderWithoutStorage`).
// - `c.html(<Page/>)` answers with the String object JSX gives; node-server only fast-paths
//   primitive strings, and builds and streams a full web Response for anything else.
import type { Context } from 'hono'
import { Fragment, jsx } from 'hono/jsx'
import type { JSX } from 'hono/jsx/jsx-runtime'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { HtmlEscapedCallbackPhase, resolveCallback } from 'hono/utils/html'

/**
 * Where hono/jsx looks for AsyncLocalStorage: `process.getBuiltinModule`, and, when the process's
 * main module is CommonJS (a Jest or mocha suite starting an embedded sandbox), its `require`.
 */
const LOOKUPS = ['getBuiltinModule', 'mainModule'] as const

function firstRenderWithoutStorage(): void {
  const host = process as unknown as Record<string, unknown>
  const saved = LOOKUPS.map((name) => Object.getOwnPropertyDescriptor(host, name))
  try {
    for (const name of LOOKUPS) host[name] = undefined
    jsx('p', {}).toString()
  } finally {
    LOOKUPS.forEach((name, i) => {
      const descriptor = saved[i]
      if (descriptor) Object.defineProperty(host, name, descriptor)
      else delete host[name]
    })
  }
}

firstRenderWithoutStorage()

/** A JSX tree (or any child: a string, a list) as the HTML text it renders to. */
export async function renderHtml(node: unknown): Promise<string> {
  const element = jsx(Fragment, {}, node as JSX.Element) as unknown as JSX.Element
  return `${await resolveCallback(element, HtmlEscapedCallbackPhase.Stringify, false, {})}`
}

export async function htmlPage(
  c: Context<any>,
  page: JSX.Element,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  return c.html(await renderHtml(page), status)
}
