import { serve } from '@hono/node-server'
import { Hono } from 'hono'
const app = new Hono()
const body = { api_active: true, created_at: '2026-03-01T12:30:45.123456Z', updated_at: '2026-03-01T12:30:45.123456Z' }
const mw = async (c, next) => { await next() }
app.get('/get', (c) => c.json(body))
app.get('/get2', mw, mw, (c) => c.json(body))
const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
if (process.env.CORK) {
  let corked = []
  const flush = () => { const s = corked; corked = []; for (const sock of s) sock.uncork() }
  server.prependListener('request', (req, res) => {
    const sock = req.socket
    sock.cork()
    if (corked.push(sock) === 1) setImmediate(flush)
  })
}
