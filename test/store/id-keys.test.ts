// A charge's and a transfer's ids carry their row's key through a permutation keyed by the
// store's own secret (store/keyed-rows.ts, store/speck.ts): no id the store ever gave comes back,
// after a reset, a company's deletion, a scenario replacing a company and a restart included, and an id tells a tenant nothing
// of how many rows other tenants made. SEED still makes a fresh store's ids the same run after run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { silentLog } from '../../src/log.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { speck32 } from '../../src/store/speck.js'
import { AUTH, basic, request, T0, tenantDoc, testConfig } from '../harness.js'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'pix-sandbox-id-keys-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const START = T0
const admin = (sb: RunningSandbox, method: string, path: string, json?: unknown) =>
  request(sb.url, method, `/_sandbox${path}`, { auth: `Bearer ${sb.adminToken}`, json })
const transfer = async (sb: RunningSandbox, auth = AUTH.main) => {
  const res = await request(sb.url, 'POST', '/api/v1/hub/transactions/out', {
    auth,
    json: { amount: 100, pix_key: 'a@b.com', pix_type: 'EMAIL' },
  })
  expect(res.status).toBe(200)
  return res.body.transaction_id as string
}
const charge = async (sb: RunningSandbox) => {
  const res = await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
    auth: AUTH.main,
    json: { amount: 100 },
  })
  expect(res.status).toBe(200)
  return res.body as { transaction_id: string; qr_code_name: string }
}
/** A file store whose clock starts frozen at START, at each start and after each reset. */
const onFile = (seed?: string) =>
  startSandbox(testConfig({ database: join(dir, 'sandbox.db'), seed, startTime: START }), {
    log: silentLog,
  })

describe('ids never given twice', () => {
  it('after a reset and a restart, with the clock frozen at one instant', async () => {
    const given: string[] = []
    for (let run = 0; run < 2; run++) {
      const sb = await onFile('same')
      try {
        given.push(await transfer(sb), (await charge(sb)).transaction_id)
        expect((await admin(sb, 'POST', '/reset', {})).status).toBe(200)
        given.push(await transfer(sb), (await charge(sb)).transaction_id)
      } finally {
        await sb.close()
      }
    }
    expect(new Set(given).size).toBe(given.length)
  })

  it("after a company's deletion and a restart, with the clock frozen at one instant", async () => {
    let sb = await onFile()
    const tenant = (await admin(sb, 'POST', '/companies', { name: 'Gone', balance: 1000 })).body
    const theirs = await transfer(sb, `Basic ${tenant.token}`)
    expect((await admin(sb, 'DELETE', `/companies/${tenant.company_id}`)).status).toBe(204)
    await sb.close()
    sb = await onFile()
    try {
      const ours = await transfer(sb)
      expect(ours).not.toBe(theirs)
      // The deleted company's id finds nothing, for anyone.
      expect((await admin(sb, 'GET', `/transfers/${theirs}`)).status).toBe(404)
    } finally {
      await sb.close()
    }
  })

  it('after a scenario replaces a company and a restart, with the clock frozen at one instant', async () => {
    const shop = tenantDoc('shop', { balance: 1000 })
    const applied = (sb: RunningSandbox) =>
      admin(sb, 'POST', '/scenarios', { document: { companies: [shop] } })
    let sb = await onFile()
    expect((await applied(sb)).status).toBe(200)
    const before = await transfer(sb, basic('shop', 'shop-secret'))
    expect((await applied(sb)).status).toBe(200)
    // The company replaced: its transfer is gone with it.
    expect((await admin(sb, 'GET', `/transfers/${before}`)).status).toBe(404)
    const given = [before, await transfer(sb, basic('shop', 'shop-secret'))]
    await sb.close()
    sb = await onFile()
    try {
      expect((await applied(sb)).status).toBe(200)
      given.push(await transfer(sb, basic('shop', 'shop-secret')))
    } finally {
      await sb.close()
    }
    expect(new Set(given).size).toBe(given.length)
  })
})

describe('what an id tells', () => {
  it("nothing of the store's count: two stores' first ids carry different keys, and a later id's key is no count", async () => {
    const a = await startSandbox(testConfig(), { log: silentLog })
    const b = await startSandbox(testConfig(), { log: silentLog })
    try {
      const [first, second] = [await charge(a), await charge(b)]
      // Characters 10-15 carry the key (ids.ts): the same row key, unlike codes.
      expect(first.transaction_id.slice(10, 16)).not.toBe(second.transaction_id.slice(10, 16))
      const [t1, t2] = [await transfer(a), await transfer(b)]
      expect(t1.slice(-6)).not.toBe(t2.slice(-6))
    } finally {
      await a.close()
      await b.close()
    }
  })

  it('the same ids for the same seed on a fresh store, run after run', async () => {
    const run = async () => {
      const sb = await startSandbox(testConfig({ seed: 'again', startTime: START }), {
        log: silentLog,
      })
      try {
        return [(await charge(sb)).transaction_id, await transfer(sb)]
      } finally {
        await sb.close()
      }
    }
    expect(await run()).toEqual(await run())
  })

  it("a tenant's ids and charge names tell nothing of others, and its ids are found by it alone", async () => {
    const sb = await startSandbox(testConfig(), { log: silentLog })
    try {
      const tenant = (await admin(sb, 'POST', '/companies', { name: 'T', balance: 1000 })).body
      const auth = basic(tenant.client_id, tenant.client_secret)
      // A charge's short name numbers it among its company's own, whatever others made.
      for (let i = 0; i < 3; i++) await charge(sb)
      const own = await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
        auth,
        json: { amount: 100 },
      })
      expect(own.body.qr_code_name).toBe('T #1')
      const id = await transfer(sb, auth)
      expect((await request(sb.url, 'GET', `/_sandbox/transfers/${id}`, { auth })).status).toBe(200)
      expect(
        (await request(sb.url, 'GET', `/_sandbox/transfers/${id}`, { auth: AUTH.main })).status,
      ).toBe(404)
    } finally {
      await sb.close()
    }
  })
})

describe("a payment's end-to-end id", () => {
  it('with the clock frozen, tells nothing of the payments of other companies made in between', async () => {
    const sb = await startSandbox(testConfig({ startTime: START }), { log: silentLog })
    try {
      const tenant = (await admin(sb, 'POST', '/companies', { name: 'T' })).body
      const auth = basic(tenant.client_id, tenant.client_secret)
      /** Creates a charge as `who` and pays it: its end-to-end id. */
      const paid = async (who: string) => {
        const created = await request(sb.url, 'POST', '/api/v1/hub/transactions/in', {
          auth: who,
          json: { amount: 100 },
        })
        const pay = await request(
          sb.url,
          'POST',
          `/_sandbox/charges/${created.body.transaction_id}/pay`,
          { auth: who, json: {} },
        )
        expect(pay.status).toBe(200)
        return pay.body.end_to_end_id as string
      }
      // The 5 characters after E, the ISPB and the minute: the microseconds within the minute.
      const within = (id: string) => id.slice(21, 26)
      const first = await paid(auth)
      for (let i = 0; i < 5; i++) await paid(AUTH.main)
      const second = await paid(auth)
      expect(first.slice(0, 21)).toBe(second.slice(0, 21))
      // The next microsecond of its own, whatever others paid meanwhile.
      expect([within(first), within(second)]).toEqual(['00000', '00001'])
    } finally {
      await sb.close()
    }
  })
})

describe('Speck32/64', () => {
  it("gives the designers' test vector, and undoes itself", () => {
    // Beaulieu et al. 2013, appendix C: key 1918 1110 0908 0100, plaintext 6574 694c.
    const p = speck32(Buffer.from('1918111009080100', 'hex'))
    expect(p.encode(0x6574694c).toString(16)).toBe('a86842f2')
    expect(p.decode(0xa86842f2).toString(16)).toBe('6574694c')
    for (const n of [0, 1, 2, 0xffff, 0x10000, 0x7fffffff, 0xffffffff])
      expect(p.decode(p.encode(n))).toBe(n)
  })
})
