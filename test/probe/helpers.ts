// Shared by the probe tests: a "real service" (a second sandbox on a real clock with planted
// differences) and a runProbe call that captures what it prints and writes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { silentLog } from '../../src/log.js'
import type { ProbeOptions } from '../../src/probe/options.js'
import { runProbe } from '../../src/probe/run.js'
import { startSandbox, type RunningSandbox } from '../../src/server.js'
import { HANG_MS } from '../hang.js'
import { SCENARIOS_DIR, testConfig } from '../harness.js'

/** A loopback port nothing listens on. */
export const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port
      s.close(() => resolve(p))
    })
  })

export const tempDir = () => mkdtempSync(join(tmpdir(), 'probe-test-'))

/** A sandbox standing in for the real service: the default scenario with `settings` changed. */
export async function startRealService(
  settings: Record<string, unknown>,
  opts: { replace?: [string, string][]; publicUrl?: string } = {},
): Promise<RunningSandbox> {
  const dir = tempDir()
  let text = readFileSync(join(SCENARIOS_DIR, 'default.yaml'), 'utf8')
  // default.yaml sets no setting (each keeps its default): the planted ones are the file's settings.
  if (Object.keys(settings).length)
    text += `\nsettings:\n${Object.entries(settings)
      .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
      .join('\n')}\n`
  for (const [from, to] of opts.replace ?? []) text = text.split(from).join(to)
  writeFileSync(join(dir, 'planted.yaml'), text)
  // A real clock: the probe reads expiration_date against the Date header.
  return startSandbox(
    testConfig({ scenariosDir: dir, scenario: 'planted', publicUrl: opts.publicUrl }),
    { log: silentLog },
  )
}

export interface ProbeRun {
  code: number
  out: string
  err: string
  json: any
  jsonText: string
}

export async function probe(
  target: string,
  options: Partial<ProbeOptions> = {},
): Promise<ProbeRun> {
  const file = join(tempDir(), 'report.json')
  let out = ''
  let err = ''
  const code = await runProbe(
    {
      target,
      createCharges: 0,
      transfers: false,
      largeBody: false,
      rate: 1000,
      // The probe's own per-request limit: here about a hang (test/hang.ts), not an idle machine's answer time.
      timeoutMs: HANG_MS,
      insecure: false,
      failOnDifference: false,
      json: file,
      ...options,
    },
    { out: (t) => void (out += t), err: (t) => void (err += t) },
  )
  let jsonText = ''
  try {
    jsonText = readFileSync(options.json ?? file, 'utf8')
  } catch {}
  return { code, out, err, json: jsonText ? JSON.parse(jsonText) : undefined, jsonText }
}

export const rowsWhere = (run: ProbeRun, verdict: string): string[] =>
  run.json.rows
    .filter((r: { verdict: string }) => r.verdict === verdict)
    .map((r: { id: string }) => r.id)
    .sort()
