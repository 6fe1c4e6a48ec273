// The baseline of the benchmark: a bare Hono + @hono/node-server app, one JSON GET route and one
// JSON POST route that parses its body. What the stack itself can do on this machine. Plain
// JavaScript, so it starts the same way as the compiled sandbox.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('/get', (c) => c.json({ api_active: true, created_at: '2026-03-01T12:30:45.123456Z', updated_at: '2026-03-01T12:30:45.123456Z' }))
app.post('/post', async (c) => {
  const body = await c.req.json()
  return c.json({ status: 'pending', transaction_id: 'k3Jd9QmZ0aLx7VbN2cYt5WsR8eUo1PfG', amount: body.amount })
})

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 0), hostname: '127.0.0.1' })
process.on('SIGTERM', () => server.close(() => process.exit(0)))
