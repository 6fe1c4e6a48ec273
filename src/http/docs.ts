// GET /docs: an interactive reference of the contract and the control plane (Swagger UI), served
// from files the package ships (swagger-ui.ts) so it works offline. Assets are read on first use.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hono } from 'hono'
import { FAVICON_PATH } from './favicon.js'
import { SWAGGER_UI_FILES as ASSETS, swaggerUiDir } from './swagger-ui.js'

const page = (docs: { name: string; url: string }[]) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>pix-sandbox reference</title>
  <link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body { margin: 0 } .topbar { display: none }</style>
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      urls: ${JSON.stringify(docs)},
      dom_id: '#ui',
      deepLinking: true,
      validatorUrl: null,
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    })
  </script>
</body>
</html>`

export function mountDocs(app: Hono<any>, docs: { name: string; url: string }[]): void {
  const dir = swaggerUiDir()
  const cache = new Map<string, Buffer>()
  const html = page(docs)
  app.get('/docs', (c) => c.html(html))
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file')
    const type = ASSETS[file]
    if (!type) return c.json({ detail: 'Not Found' }, 404)
    let body = cache.get(file)
    if (!body) cache.set(file, (body = readFileSync(join(dir, file))))
    return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' })
  })
}
