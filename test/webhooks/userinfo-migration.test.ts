// A store from 0.1.0 may hold subscriptions whose URL carries `user:password@` (now refused with
// a 422): migration 011 removes the user and password from the subscription and from its
// `webhook.created` event, and disables it saying why; other subscriptions are left as they were.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDb } from '../../src/store/db.js'
import { migrations } from '../../src/store/migrations/index.js'
import { startTestSandbox } from '../harness.js'

const cleanup: (() => unknown)[] = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

it('removes a stored password from old subscriptions and their events, and disables them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  const database = join(dir, 'old.db')
  const old = openDb(
    database,
    migrations.filter((m) => m.version <= 10),
  )
  const secret = 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
  const subscribe = old.prepare(
    `INSERT INTO webhooks (id, company_id, url, events, format, secret, created_at) VALUES (?, NULL, ?, '["charge.paid"]', 'standard', '${secret}', 7)`,
  )
  const created = old.prepare(
    `INSERT INTO events (id, type, at, company_id, data) VALUES (?, 'webhook.created', 7, NULL, ?)`,
  )
  for (const [id, url] of [
    ['wh_pass', 'http://ana:s3cret-word@127.0.0.1:9/hooks/a@b?x=1'],
    ['wh_plain', 'http://127.0.0.1:9/hooks/plain'],
  ] as const) {
    subscribe.run(id, url)
    created.run(`evt_${id}`, JSON.stringify({ webhook_id: id, url, events: ['charge.paid'] }))
  }
  old.close()

  const sb = await startTestSandbox({ database })
  cleanup.push(() => sb.close())
  const hooks = (await sb.admin('GET', '/webhooks')).body.data as Record<string, unknown>[]
  expect(hooks.find((h) => h.id === 'wh_pass')).toMatchObject({
    url: 'http://127.0.0.1:9/hooks/a@b?x=1',
    disabled_at: '1970-01-01T00:00:00.000007Z',
    disabled_reason: expect.stringContaining('user:password@'),
  })
  expect(hooks.find((h) => h.id === 'wh_plain')).toMatchObject({
    url: 'http://127.0.0.1:9/hooks/plain',
    disabled_at: null,
    disabled_reason: null,
  })
  const events = await sb.admin('GET', '/events?type=webhook.created')
  expect(events.body.data.map((e: { data: { url: string } }) => e.data.url).sort()).toEqual([
    'http://127.0.0.1:9/hooks/a@b?x=1',
    'http://127.0.0.1:9/hooks/plain',
  ])
  expect(JSON.stringify([hooks, events.body])).not.toContain('s3cret')
})
