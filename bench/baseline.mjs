// The baseline of the benchmark: a bare Hono + @hono/node-server app, one JSON GET route and one
// JSON POST route that parses its body. What the stack itself can do on this machine. Plain
// JavaScript, so it starts the same way as the compiled sandbox.
//
// A third route, POST /durable, is the stack's own limit for an acknowledged write: the POST
// route plus one row inserted into SQLite (better-sqlite3, a WAL file, synchronous=NORMAL),
// committed once per turn of the event loop and answered after its commit, as the sandbox does.
// It is reported beside the targets, which stay against the bare POST.
import { serve } from '@hono/node-server'
import Database from 'better-sqlite3'
import { Hono } from 'hono'

const db = new Database(process.env.BASELINE_DB ?? ':memory:')
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.exec(
  'CREATE TABLE IF NOT EXISTS writes (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, amount INTEGER NOT NULL, at INTEGER NOT NULL)',
)
const insert = db.prepare('INSERT INTO writes (id, amount, at) VALUES (?, ?, ?)')
const begin = db.prepare('BEGIN')
const commit = db.prepare('COMMIT')
let pending = null
let counter = 0

/** Writes one row in the shared transaction; resolves once that transaction is committed. */
function write(amount) {
  if (!pending) {
    begin.run()
    pending = new Promise((resolve) =>
      setImmediate(() => {
        pending = null
        commit.run()
        resolve()
      }),
    )
  }
  // Time-ordered ids, as the sandbox's: inserts land at the end of the index.
  insert.run(
    `${Date.now().toString(36)}${(counter++).toString(36).padStart(8, '0')}`,
    amount,
    Date.now(),
  )
  return pending
}

const app = new Hono()
app.get('/get', (c) =>
  c.json({
    api_active: true,
    created_at: '2026-03-01T12:30:45.123456Z',
    updated_at: '2026-03-01T12:30:45.123456Z',
  }),
)
app.post('/post', async (c) => {
  const body = await c.req.json()
  return c.json({
    status: 'pending',
    transaction_id: 'k3Jd9QmZ0aLx7VbN2cYt5WsR8eUo1PfG',
    amount: body.amount,
  })
})
app.post('/durable', async (c) => {
  const body = await c.req.json()
  await write(body.amount)
  return c.json({
    status: 'pending',
    transaction_id: 'k3Jd9QmZ0aLx7VbN2cYt5WsR8eUo1PfG',
    amount: body.amount,
  })
})

const server = serve({
  fetch: app.fetch,
  port: Number(process.env.PORT ?? 0),
  hostname: '127.0.0.1',
})
process.on('SIGTERM', () => server.close(() => (db.close(), process.exit(0))))
