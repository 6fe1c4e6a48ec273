// The icon of the dashboard and /docs, served from the package at /favicon.ico (an SVG, which
// browsers take under any name when its type says so): without one, every page a browser opened
// asked for /favicon.ico and logged a 404.
import type { Hono } from 'hono'

export const FAVICON_PATH = '/favicon.ico'

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b7a6f"/><path d="M16 6.5 25.5 16 16 25.5 6.5 16Z" fill="none" stroke="#fff" stroke-width="3.2" stroke-linejoin="round"/><circle cx="16" cy="16" r="2.6" fill="#fff"/></svg>`

export function mountFavicon(app: Hono<any>): void {
  app.get(FAVICON_PATH, (c) =>
    c.body(SVG, 200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }),
  )
}
