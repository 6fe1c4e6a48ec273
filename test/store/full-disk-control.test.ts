// A full disk and the control plane's writes that change more than the database: the clock
// (held in memory, saved in the store) and the dashboard's actions (in-process calls). A write
// the disk refuses is a 503 with Retry-After, and changes nothing, the clock included; the
// dashboard says so rather than report a success.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { AUTH, request, testConfig } from '../harness.js'
import { emptyWal, mountable, onSmallDisk } from './tmpfs.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-full-control-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A sandbox on a 4 MB disk; `lines`: what it logged. */
async function onFullDisk(
  fn: (
    sb: RunningSandbox,
    disk: { fill(): Promise<void>; makeRoom(): void },
    lines: string[],
  ) => Promise<void>,
) {
  await onSmallDisk(dir, async (disk) => {
    const lines: string[] = []
    const sb = await startSandbox(testConfig({ database: join(disk.dir, 'sandbox.db') }), {
      log: createLog('info', (l) => lines.push(l)),
    })
    const fill = async () => {
      await emptyWal(sb.sandbox.store.db)
      disk.fill()
    }
    try {
      await fn(sb, { ...disk, fill }, lines)
    } finally {
      disk.makeRoom()
      await sb.close()
    }
  })
}

const admin = (sb: RunningSandbox, method: string, path: string, json?: unknown) =>
  request(sb.url, method, `/_sandbox${path}`, { auth: `Bearer ${sb.adminToken}`, json })

const clockOf = async (sb: RunningSandbox) => {
  const { offset_seconds, frozen } = (await admin(sb, 'GET', '/clock')).body
  return { offset_seconds, frozen }
}

const expectUnavailable = (r: { status: number; text: string; headers: Headers }) =>
  expect([r.status, r.text, r.headers.get('retry-after')]).toEqual([
    503,
    '{"detail":"Service temporarily unavailable"}',
    '5',
  ])

describe.skipIf(!mountable)('a full disk and the control plane', () => {
  it('refuses a clock change with 503 and leaves the clock as it was', async () => {
    await onFullDisk(async (sb, disk, lines) => {
      expect((await admin(sb, 'POST', '/clock/advance', { seconds: 60 })).status).toBe(200)
      const before = await clockOf(sb)
      await disk.fill()
      for (const [path, body] of [
        ['/clock/freeze'],
        ['/clock/advance', { seconds: 3600 }],
        ['/clock/reset'],
        ['/clock/freeze'],
      ] as const) {
        expectUnavailable(await admin(sb, 'POST', path, body))
        expect(await clockOf(sb), path).toEqual(before)
      }
      expect(lines.filter((l) => l.includes('unexpected failure'))).toEqual([])
      disk.makeRoom()
      expect((await admin(sb, 'POST', '/clock/freeze')).status).toBe(200)
      expect((await clockOf(sb)).frozen).toBe(true)
    })
  })

  it('refuses a reset with 503 and leaves the clock, the readiness and the journal as they were', async () => {
    await onFullDisk(async (sb, disk) => {
      expect((await admin(sb, 'POST', '/clock/freeze')).status).toBe(200)
      expect((await admin(sb, 'POST', '/clock/advance', { seconds: 3600 })).status).toBe(200)
      expect(
        (
          await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
            auth: AUTH.main,
            json: { amount: 1000 },
          })
        ).status,
      ).toBe(200)
      const readiness = (await admin(sb, 'GET', '/readiness')).text
      expect(readiness).toContain('"met":1')
      const journal = (await admin(sb, 'GET', '/requests?limit=500')).body.data.length as number
      await disk.fill()
      expectUnavailable(await admin(sb, 'POST', '/reset', {}))
      expect(await clockOf(sb)).toEqual({ offset_seconds: 3600, frozen: true })
      expect((await admin(sb, 'GET', '/readiness')).text).toBe(readiness)
      expect((await admin(sb, 'GET', '/requests?limit=500')).body.data.length).toBeGreaterThan(
        journal,
      )
    })
  })

  it('shows a failed dashboard action as an error, not a success for a write that was lost', async () => {
    await onFullDisk(async (sb, disk) => {
      const headers = { origin: sb.url }
      const signIn = await fetch(`${sb.url}/_sandbox/ui/sign-in`, {
        method: 'POST',
        body: new URLSearchParams({ token: sb.adminToken }),
        redirect: 'manual',
        headers,
      })
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!
      const companies = () => sb.sandbox.store.identity.companyCount()
      const count = companies()
      await disk.fill()
      const post = await fetch(`${sb.url}/_sandbox/ui/companies`, {
        method: 'POST',
        body: new URLSearchParams({ name: 'Lost Ltda', balance: '0' }),
        redirect: 'manual',
        headers: { ...headers, cookie },
      })
      expect(post.status).toBe(303)
      const page = await (
        await fetch(new URL(post.headers.get('location')!, sb.url), { headers: { cookie } })
      ).text()
      expect(page).not.toContain('Company created')
      expect(page).toContain('Service temporarily unavailable')
      expect(companies()).toBe(count)
    })
  })
})
