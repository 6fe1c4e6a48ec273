// The typed-client recipe (examples/typed-client), run as the README shows it: a sandbox on port 0,
// `npm run generate` (openapi-typescript from its /openapi.json), `tsc --noEmit` on a program using
// openapi-fetch, then the program itself (tsx), which must have created a charge. The example is
// its own project (TypeScript 5: openapi-typescript needs its compiler API, which this project's
// TypeScript 7 does not have): its dependencies are installed from its lockfile when missing.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../harness.js'
import { exampleDir, installExample, run } from './example-project.js'

const EXAMPLE = exampleDir('typed-client')

describe('the typed client generated from /openapi.json', () => {
  let sandbox: TestSandbox
  let project: string

  beforeAll(async () => {
    await installExample(EXAMPLE)
    sandbox = await startTestSandbox()
    // A copy of the example, as a user has it, sharing the installed dependencies.
    project = mkdtempSync(join(tmpdir(), 'pix-typed-client-'))
    for (const f of ['package.json', 'tsconfig.json', 'src/create-charge.ts'])
      cpSync(join(EXAMPLE, f), join(project, f))
    symlinkSync(join(EXAMPLE, 'node_modules'), join(project, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await sandbox?.close()
    if (project) rmSync(project, { recursive: true, force: true })
  })

  it('generates, type-checks and creates a charge', async () => {
    const env = { PIX_SANDBOX_URL: sandbox.url }
    const generated = await run('npm', ['run', 'generate'], project, env)
    expect(generated.code, generated.output).toBe(0)
    const types = readFileSync(join(project, 'src/pix-api.d.ts'), 'utf8')
    expect(types).toContain('"/hub/transactions/in"')

    // The types bind: each wrong call below must be a compile error, or tsc reports its expect-error
    // directive as unused (so loose `any` types would fail this test).
    writeFileSync(
      join(project, 'src/wrong-calls.ts'),
      [
        "import createClient from 'openapi-fetch'",
        "import type { paths } from './pix-api.js'",
        "const pix = createClient<paths>({ baseUrl: 'http://localhost:8080/api/v1' })",
        '// @ts-expect-error amount is integer cents, not a string',
        "await pix.POST('/hub/transactions/in', { body: { amount: '10.00' } })",
        '// @ts-expect-error no such path',
        "await pix.POST('/hub/transactions/sideways', { body: { amount: 1 } })",
        "const { data } = await pix.POST('/hub/transactions/out', { body: { amount: 1, pix_key: 'a@b.co', pix_type: 'EMAIL' } })",
        '// @ts-expect-error a transfer has no qr_code',
        'data?.qr_code',
        '',
      ].join('\n'),
    )
    const [typecheck, ran] = await Promise.all([
      run(join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], project),
      run(join(project, 'node_modules/.bin/tsx'), ['src/create-charge.ts'], project, env),
    ])
    expect(typecheck.code, typecheck.output).toBe(0)
    expect(ran.code, ran.output).toBe(0)
    const printed = JSON.parse(ran.stdout) as { transaction_id: string; status: string }
    expect(printed.status).toBe('pending')
    const charge = await sandbox.admin('GET', `/charges/${printed.transaction_id}`)
    expect(charge.status, charge.text).toBe(200)
    expect(charge.body).toMatchObject({
      transaction_id: printed.transaction_id,
      amount: 1000,
      status: 'pending',
    })
  })
})
