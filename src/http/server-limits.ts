// What the HTTP server allows a connection (docs/SECURITY.md, "Slow clients"). Node's defaults
// let a client that sends nothing, or a byte now and then, hold its connection for 300 s, and
// any number of them: with the body read before authentication (the contract's order of
// checks), that pinned memory. Here a request must arrive whole within `requestTimeout` (its
// headers within `headersTimeout`), an idle keep-alive connection is closed after
// `keepAliveTimeout` (uvicorn's 5 s), and connections beyond `maxConnections` are refused (closed
// as they are accepted); what a body may hold while it arrives is bounded by body-budget.ts.
import type { Server, ServerOptions } from 'node:http'

export interface ServerLimits {
  /** Connections open at once; more are closed as soon as they are accepted. */
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

/** The limit that is a property of the listening server. */
export function limitConnections(server: Server, limits: ServerLimits = SERVER_LIMITS): void {
  server.maxConnections = limits.maxConnections
}
