// GET /docs: an interactive reference of the contract and the control plane (Swagger UI), served
// from files the package ships (swagger-ui.ts) so it works offline. Assets are read on first use.
// The page has the dashboard's headers (page-headers.ts), so its own script and style are files
// too, and a token typed into "Authorize" lives as long as the tab: not persisted.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hono } from 'hono'
import { FAVICON_PATH } from './favicon.js'
import { PAGE_HEADERS } from './page-headers.js'
import { SWAGGER_UI_FILES as ASSETS, swaggerUiDir } from './swagger-ui.js'

const JS_TYPE = 'text/javascript; charset=utf-8'
const CSS_TYPE = 'text/css; charset=utf-8'

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>pix-sandbox reference</title>
  <link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/docs.js"></script>
</body>
</html>`

const style = 'body { margin: 0 } .topbar { display: none }\n'

const script = (docs: { name: string; url: string }[]) => `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(docs)},
  dom_id: '#ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  // The (hidden) top bar's logo carries an inline <style>, which the page's policy refuses.
  plugins: [() => ({ components: { Logo: () => null } })],
  layout: 'StandaloneLayout',
})
`

export function mountDocs(app: Hono<any>, docs: { name: string; url: string }[]): void {
  const dir = swaggerUiDir()
  const own: Record<string, [Buffer, string]> = {
    'docs.css': [Buffer.from(style), CSS_TYPE],
    'docs.js': [Buffer.from(script(docs)), JS_TYPE],
  }
  const cache = new Map<string, Buffer>()
  app.get('/docs', (c) => c.html(page, 200, PAGE_HEADERS))
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file')
    const headers = {
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    }
    const mine = own[file]
    if (mine) return c.body(new Uint8Array(mine[0]), 200, { ...headers, 'content-type': mine[1] })
    const type = ASSETS[file]
    if (!type) return c.json({ detail: 'Not Found' }, 404)
    let body = cache.get(file)
    if (!body) cache.set(file, (body = readFileSync(join(dir, file))))
    return c.body(new Uint8Array(body), 200, { ...headers, 'content-type': type })
  })
}
