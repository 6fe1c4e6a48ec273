// docs/CONTROL-PLANE.md#every-control-endpoint, run as written: each command of the table (its
// shorthands, `.../cancel` or `-X DELETE $SB/requests`, completed from the command before them)
// runs in bash with curl on a freshly reset sandbox, after the doc's own `export` lines, and
// each placeholder filled with a record made for it; it must answer 2xx. Its `who` column is a
// claim too: `admin` rows answer 403 to a company's own credentials put in the admin token's
// place, `admin or own company` rows 2xx, `none` rows carry no credentials. A row that says who
// may call it wrongly, or an example that does not work, fails here; so does an example whose
// prose says who may call it (a 403, "admin only"): that is said once, in `who`, where it is tested.
// docs/WEBHOOKS.md's table of endpoints has a `who` column too, held to what the control
// document declares for each operation (which access.test.ts holds to the answers).
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readmeBlocks } from '../readme/readme.js'
import { AUTH, startTestSandbox, type TestSandbox } from '../harness.js'
import { adminOnly } from './documented.js'

const DOC = readFileSync(new URL('../../docs/CONTROL-PLANE.md', import.meta.url), 'utf8')
const ADMIN_FLAG = '-H "$ADMIN"'
const COMPANY_FLAG = '-u sandbox-client:sandbox-secret'
const WHO = ['none', 'admin', 'admin or own company'] as const
type Who = (typeof WHO)[number]

interface Row {
  endpoint: string
  who: string
  example: string
  commands: string[]
}

/** The endpoint table's rows: endpoint, who, and the commands of its example cell, completed. */
function tableRows(): Row[] {
  const section = DOC.split('\n## Every control endpoint\n')[1]!.split('\n## ')[0]!
  const lines = section.split('\n').filter((l) => l.startsWith('|'))
  expect(lines[0]!.split('|').map((c) => c.trim())).toEqual(['', 'endpoint', 'who', 'example', ''])
  return lines.slice(2).map((line) => {
    const [, endpoint, who, example] = line.split('|').map((c) => c.trim())
    const commands: string[] = []
    for (const [, code] of example!.matchAll(/`([^`]+)`/g)) {
      const before = commands.at(-1)
      const auth = before?.match(/-H "\$ADMIN"|-u \S+/)?.[0] ?? ''
      if (code!.startsWith('curl ')) commands.push(code!)
      else if (before && code!.startsWith('.../'))
        commands.push(before.replace(/(\$\w+\/\S*?)\/[^/\s"]+(?="?(\s|$))/, `$1${code!.slice(3)}`))
      else if (before && code!.startsWith('$SB/')) commands.push(`curl -s ${auth} "${code}"`)
      else if (before && code!.startsWith('-X ')) commands.push(`curl -s ${auth} ${code}`)
    }
    return { endpoint: endpoint!, who: who!, example: example!, commands }
  })
}

let sb: TestSandbox
beforeAll(async () => {
  sb = await startTestSandbox({ adminToken: TOKEN })
})
afterAll(() => sb.close())

const contract = (path: string, json: unknown, headers?: Record<string, string>) =>
  sb.request('POST', `/api/v1/hub/transactions/${path}`, { auth: AUTH.main, json, headers })

/** A placeholder's value: a record made for the command, on the sandbox as the reset left it. */
async function filled(command: string): Promise<string> {
  const charge = async () => (await contract('in', { amount: 15000 })).body.transaction_id
  const chargeRecord = async () => (await sb.admin('GET', `/charges/${await charge()}`)).body
  let out = command
  if (/\/transfers\/<transaction_id>/.test(out)) {
    const pending = await contract(
      'out',
      { amount: 100, pix_key: 'maria@example.com', pix_type: 'EMAIL' },
      { 'X-Sandbox-Outcome': 'pending' },
    )
    out = out.replaceAll('<transaction_id>', pending.body.transaction_id)
  }
  if (out.includes('<transaction_id>')) out = out.replaceAll('<transaction_id>', await charge())
  if (out.includes('000201...')) out = out.replace('000201...', (await chargeRecord()).qr_code)
  if (out.includes('<location-id>'))
    out = out.replace('<location-id>', (await chargeRecord()).location.split('/').at(-1))
  if (out.includes('<company_id>'))
    out = out.replace('<company_id>', (await sb.admin('POST', '/companies', {})).body.company_id)
  return out
}

/**
 * The doc's own `export` lines (Before you start), as a reader runs them before the table: the
 * sandbox they name is this one, started with the token they export.
 */
const EXPORTS = readmeBlocks(DOC)
  .filter((b) => b.lang === 'sh')
  .flatMap((b) => b.code.split('\n'))
  .filter((line) => line.startsWith('export '))
const TOKEN = /^export SANDBOX_ADMIN_TOKEN=(\S+)/m.exec(EXPORTS.join('\n'))![1]!

/** Runs a command in bash after the doc's exports, answering its HTTP status and body. */
function run(command: string): Promise<{ status: number; body: string }> {
  const script = [
    ...EXPORTS.map((line) => line.replaceAll('http://127.0.0.1:8080', sb.url)),
    `${command} -w '\n@@%{http_code}'`,
  ].join('\n')
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], (error, stdout) => {
      if (error) return reject(new Error(`${command}: ${error.message}`))
      const at = stdout.lastIndexOf('\n@@')
      resolve({ status: Number(stdout.slice(at + 3)), body: stdout.slice(0, at) })
    }),
  )
}

async function answer(command: string) {
  expect((await sb.admin('POST', '/reset')).status).toBe(200)
  const ready = await filled(command)
  expect(ready, 'a placeholder this test does not know how to fill').not.toMatch(
    /<[\w-]+>|\.\.\.["/]/,
  )
  return run(ready)
}

describe('docs/CONTROL-PLANE.md: every control endpoint', () => {
  const rows = tableRows()

  it('has a row for each kind of call, each with a command and who may make it', () => {
    expect(rows.length).toBeGreaterThan(30)
    for (const row of rows) {
      expect(row.commands.length, row.endpoint).toBeGreaterThan(0)
      expect(WHO, `${row.endpoint}: who is one of ${WHO.join(', ')}`).toContain(row.who)
      // Said once, where it is tested: an example's prose that says who may call contradicts it.
      expect(row.example, `${row.endpoint}: who may call it is said in \`who\``).not.toMatch(
        /\b40[13]\b|admin[- ](token )?only|only (with )?the admin/i,
      )
    }
  })

  it.each(rows.map((r) => [r.endpoint, r] as const))('%s: works as written', async (_, row) => {
    for (const command of row.commands) {
      const { status, body } = await answer(command)
      expect(status, `${command}\n${body}`).toBeGreaterThanOrEqual(200)
      expect(status, `${command}\n${body}`).toBeLessThan(300)
    }
  })

  it.each(rows.map((r) => [r.endpoint, r] as const))('%s: who may call it', async (_, row) => {
    for (const command of row.commands) {
      const who = row.who as Who
      if (who === 'none') {
        expect(command, 'a row callable by anyone shows no credentials').not.toMatch(
          /-H "\$ADMIN"|-u /,
        )
        continue
      }
      const credentials = command.match(/-H "\$ADMIN"|-u \S+/)
      expect(credentials, 'a row that needs credentials shows them').not.toBeNull()
      const asAdmin = await answer(command.replace(credentials![0], ADMIN_FLAG))
      expect(asAdmin.status, `${command} with the admin token\n${asAdmin.body}`).toBeLessThan(300)
      const asCompany = await answer(command.replace(credentials![0], COMPANY_FLAG))
      const where = `${command} with a company's credentials\n${asCompany.body}`
      if (who === 'admin') expect(asCompany.status, where).toBe(403)
      else expect(asCompany.status >= 200 && asCompany.status < 300, where).toBe(true)
    }
  })
})

describe("docs/WEBHOOKS.md's table of endpoints", () => {
  const WEBHOOKS = readFileSync(new URL('../../docs/WEBHOOKS.md', import.meta.url), 'utf8')

  it('says who may call each as /_sandbox/openapi.json declares it (as access.test.ts holds it)', async () => {
    const doc = (await sb.request('GET', '/_sandbox/openapi.json')).body
    const table = WEBHOOKS.split('\n| endpoint | who | what it does |\n')[1]!.split('\n\n')[0]!
    const lines = table.split('\n').filter((l) => l.startsWith('| `'))
    expect(lines.length).toBeGreaterThan(4)
    for (const line of lines) {
      const [, endpoints, who] = line.split('|').map((c) => c.trim())
      expect(WHO, line).toContain(who)
      let path = ''
      for (const [, method, url] of endpoints!.matchAll(/`([A-Z]+)(?: \$SB([^\s?`]+))?/g)) {
        path = url ?? path
        // Matched whatever its ids are called (the doc's `{id}`, the document's `{webhook_id}`).
        const shape = (p: string) => p.replace(/\{\w+\}/g, '{}')
        const template = Object.keys(doc.paths).find((p) => shape(p) === shape(path))
        const operation = template && doc.paths[template][method!.toLowerCase()]
        expect(operation, `${method} ${path} is an operation of the control plane`).toBeDefined()
        expect(adminOnly(operation) ? 'admin' : 'admin or own company', `${method} ${path}`).toBe(
          who,
        )
      }
    }
  })
})
