// The benchmark's baseline app: its durable route must really write and commit a row per request,
// or the "durable POST" figure the benchmark reports beside its targets would mean nothing.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startProcess, type Proc } from '../../bench/processes.js'

describe('bench/baseline.mjs', () => {
  let dir: string
  let baseline: Proc
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baseline-'))
    baseline = await startProcess(
      ['bench/baseline.mjs'],
      { BASELINE_DB: join(dir, 'baseline.db') },
      '/get',
    )
  })
  afterAll(async () => {
    await baseline?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  const post = (path: string, amount: number) =>
    fetch(baseline.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount }),
    })

  it('answers the bare POST with the amount it parsed', async () => {
    const res = await post('/post', 1234)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { amount: number }).amount).toBe(1234)
  })

  it('keeps one committed row for every durable POST it answered', async () => {
    const amounts = Array.from({ length: 50 }, (_, i) => i + 1)
    const answers = await Promise.all(amounts.map((a) => post('/durable', a)))
    expect(answers.map((r) => r.status)).toEqual(amounts.map(() => 200))
    // Another connection sees only committed rows: every answered write must be among them.
    const db = new Database(join(dir, 'baseline.db'), { readonly: true })
    try {
      const rows = db.prepare('SELECT amount, id FROM writes ORDER BY amount').all() as {
        amount: number
        id: string
      }[]
      expect(rows.map((r) => r.amount)).toEqual(amounts)
      expect(new Set(rows.map((r) => r.id)).size).toBe(amounts.length)
    } finally {
      db.close()
    }
  })
})
