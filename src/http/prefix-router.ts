// Hono's RegExpRouter answers a static path from a map, without allocating; its TrieRouter walks
// a tree and sorts handlers on every request, which showed in profiles of the contract. The
// RegExpRouter cannot hold the whole control plane (it refuses `/webhooks/deliveries/{id}/retry`
// beside `/webhooks/{webhook_id}/test`), so Hono fell back to the trie for every route. Here the
// routes that can match under one prefix (the contract's, and the middleware) get a router of
// their own, which is a RegExpRouter; every other path goes to a router holding everything.
//
// Handlers `keepOut` names are left out of the prefix's router: the contract's routes are each one
// handler that journals itself (contract/endpoint.ts), and Hono runs a lone handler without
// composing a chain. A path under the prefix that none of its routes answers (a 404, a 405) is
// matched on the router holding everything, middleware included.
import type { Result, Router } from 'hono/router'
import { RegExpRouter } from 'hono/router/reg-exp-router'
import { SmartRouter } from 'hono/router/smart-router'
import { TrieRouter } from 'hono/router/trie-router'

const smart = <T>() => new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] })

/** Whether a route path could match some request path under `prefix` (conservative). */
export function mayMatchUnder(routePath: string, prefix: string): boolean {
  if (routePath === '*' || routePath === '/*') return true
  const route = routePath.split('/')
  const wanted = prefix.split('/')
  for (let i = 1; i < wanted.length; i++) {
    const segment = route[i]
    if (segment === undefined) return false
    if (segment.startsWith('*')) return true
    if (segment.startsWith(':')) continue
    if (segment !== wanted[i]) return false
  }
  return true
}

export class PrefixRouter<T> implements Router<T> {
  name = 'PrefixRouter'
  readonly #prefix: string
  readonly #prefixSlash: string
  readonly #under = smart<T>()
  readonly #all = smart<T>()
  readonly #keepOut: (handler: T) => boolean

  constructor(prefix: string, keepOut: (handler: T) => boolean = () => false) {
    this.#prefix = prefix
    this.#prefixSlash = `${prefix}/`
    this.#keepOut = keepOut
  }

  add(method: string, path: string, handler: T): void {
    this.#all.add(method, path, handler)
    if (mayMatchUnder(path, this.#prefix) && !this.#keepOut(handler))
      this.#under.add(method, path, handler)
  }

  match(method: string, path: string): Result<T> {
    if (!path.startsWith(this.#prefixSlash)) return this.#all.match(method, path)
    const under = this.#under.match(method, path)
    return under[0].length ? under : this.#all.match(method, path)
  }

  /** Which router each side settled on (SmartRouter picks on first match): for tests. */
  get names(): [string, string] {
    return [this.#under.name, this.#all.name]
  }
}
