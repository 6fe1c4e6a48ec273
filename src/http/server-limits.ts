// What the HTTP server allows a connection (docs/SECURITY.md, "Slow clients"). Node's defaults
// let a client that sends nothing, or a byte now and then, hold its connection for 300 s, and
// any number of them: with the body read before authentication (the contract's order of
// checks), that pinned memory. Here a request must arrive whole within `requestTimeout` (its
// headers within `headersTimeout`), an idle keep-alive connection is closed after
// `keepAliveTimeout` (uvicorn's 5 s), and requests on connections beyond `maxConnections` are
// answered 503 (admission.ts); what a body may hold while it arrives is bounded by body-budget.ts.
import type { ServerOptions } from 'node:http'

export interface ServerLimits {
  /** Connections served at once; requests on more are answered 503, the health check excepted (admission.ts). */
  maxConnections: number
  /** Milliseconds for a request's headers to arrive: past it, 408 and the connection closed. */
  headersTimeout: number
  /** Milliseconds for a whole request, body included, to arrive: past it, 408 and the connection closed. */
  requestTimeout: number
  /** Milliseconds an idle keep-alive connection is kept. */
  keepAliveTimeout: number
  /** How often Node looks for requests over their time (its default, 30 s, would let one run over by as much). */
  checkEveryMs: number
}

export const SERVER_LIMITS: ServerLimits = {
  maxConnections: 1000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  checkEveryMs: 1_000,
}

/** The options `http.createServer` takes for these limits (the interval can only be set there). */
export function serverOptions(limits: ServerLimits = SERVER_LIMITS): ServerOptions {
  return {
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    connectionsCheckingInterval: limits.checkEveryMs,
  }
}
