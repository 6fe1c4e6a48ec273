// What test/sandbox/settings.test.ts reads beside what a setting does: the Transfers page (its
// cheat sheet, Send a transfer's magic values and what each sends), docs/CONTRACT.md's business
// order, the keys a setting's value lists and the keys beside them, and the state a call leaves.
import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { dashboardCookie, type TestSandbox } from '../harness.js'
import { optionsOf, sendByMagic, signIn } from '../ui/forms.js'

/** The Transfers page as the admin sees it: its cheat sheet, and the magic values Send a transfer offers (value to label). */
export async function transfersPage(
  sb: TestSandbox,
): Promise<{ sheet: string; magic: Map<string, string> }> {
  const cookie = await dashboardCookie(sb)
  const page = await (
    await fetch(`${sb.url}/_sandbox/ui/transfers`, { headers: { cookie } })
  ).text()
  const start = page.indexOf('<h2>Magic values')
  expect(start, 'the cheat sheet on the Transfers page').toBeGreaterThan(0)
  const sheet = page.slice(start, page.indexOf('</section>', start))
  // A row says both when and then: an empty cell is a half-made row (a new setting's).
  for (const [, cell] of sheet.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g))
    expect(cell!.replace(/<[^>]*>/g, '').trim(), `a cell of the cheat sheet: ${sheet}`).not.toBe('')
  return { sheet, magic: new Map(optionsOf(page, 'magic', 'id="send-transfer"')) }
}

/**
 * Send a transfer offers the failure a setting brings by name: a magic value new with the
 * setting that says its message, and that makes a transfer sent from the form fail with it.
 */
export async function offersTheFailure(
  sb: TestSandbox,
  name: string,
  before: Map<string, string>,
  after: Map<string, string>,
  message: string,
) {
  const added = [...after].filter(
    ([v, label]) => before.get(v) !== label && label.includes(message),
  )
  expect(
    added,
    `${name}: Send a transfer offers a new magic value that says "${message}"`,
  ).not.toEqual([])
  const dashboard = await signIn(sb, { token: sb.adminToken })
  for (const [magic, label] of added) {
    const { id, flash } = await sendByMagic(dashboard, magic)
    expect(id, `${name}: the magic value "${label}" made a transfer (${flash})`).toBeDefined()
    const sent = (await sb.admin('GET', `/transfers/${id}`)).body
    expect(sent, `${name}: the magic value "${label}"`).toMatchObject({ status: 'failed', message })
  }
}

/** The cheat sheet's rows that name `key`, as text. */
export const rowsNaming = (sheet: string, key: string) =>
  sheet
    .split('<tr')
    .filter((row) => row.includes(`<code>${key}</code>`))
    .map((row) => row.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' '))

/** The PIX keys a setting's value lists (an address, a phone, a CPF or CNPJ), or none. */
export const listedKeys = (value: unknown): string[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((v) => typeof v === 'string') &&
  value.some((v) => v.includes('@') || /^\+?\d{11,14}$/.test(v))
    ? value
    : []
/** A transfer's answer without what differs on every call (its id). */
export const outcomeOf = (r: { status: number; body: any }) => ({
  status: r.status,
  outcome: r.body.status,
  message: r.body.message ?? r.body.detail,
})
/**
 * Other keys of a key's type: for an address, one holding it and the same in capitals (the key
 * directory matches a key exactly, so a setting listing keys does too); else another valid number.
 */
export const keysBeside = ({
  pix_key: key,
  pix_type: type,
}: {
  pix_key: string
  pix_type: string
}) =>
  type === 'EMAIL'
    ? [`x${key}`, key.toUpperCase()].filter((k) => k !== key)
    : (
        {
          CPF: ['52998224725', '11144477735'],
          CNPJ: ['11222333000181', '11444777000161'],
          PHONE: ['+5511987654321', '+5521987654321'],
        }[type] ?? []
      ).filter((k) => k !== key)

export const TRANSFERS_PATH = '/api/v1/hub/transactions/out'
/** docs/CONTRACT.md's business order: where a reader looks for what decides a transfer first. */
export const BUSINESS_ORDER =
  readFileSync(new URL('../../docs/CONTRACT.md', import.meta.url), 'utf8')
    .split('\n')
    .find((line) => line.startsWith('| business order |')) ?? ''
/** Where the business order says `words` (-1: nowhere). */
export const inOrder = (words: string) => BUSINESS_ORDER.indexOf(words)
/** Where it names a setting, in code: `name` or `name: value` (-1: nowhere). */
export const settingInOrder = (name: string) => BUSINESS_ORDER.search(new RegExp(`\`${name}\\b`))
/** Every company's users and their balances. */
export const balances = async (sb: TestSandbox) =>
  (await sb.admin('GET', '/companies?limit=100')).body.data

export const transfersMade = async (sb: TestSandbox) =>
  (await sb.admin('GET', '/requests/count?path=/api/v1/hub/transactions/out')).body.count

/**
 * The cheat sheet and Send a transfer say of each key what a transfer to it answers, with the
 * scenario as it is now: each row naming the key says the answer's message (and calls the key
 * inactive only if the directory does), and so does each magic value sending to it when the
 * transfer fails.
 */
export async function saysOfEachKey(
  sb: TestSandbox,
  what: string,
  keys: string[],
  answerOf: (key: string) => Promise<{ outcome: string; message: string }>,
) {
  const { sheet, magic } = await transfersPage(sb)
  const inactive = new Set(
    (await sb.admin('GET', '/scenario')).body.inactive_keys.map((k: { key: string }) => k.key),
  )
  for (const key of keys) {
    const { outcome, message } = await answerOf(key)
    for (const row of rowsNaming(sheet, key)) {
      expect(row, `${what}: the cheat sheet on ${key}, which answers "${message}"`).toContain(
        message,
      )
      // And calls it inactive only where the key directory does.
      if (!inactive.has(key))
        expect(
          row.replace(message, ''),
          `${what}: the cheat sheet on ${key}, a key the directory does not list inactive`,
        ).not.toMatch(/\binactive\b/i)
    }
    if (outcome !== 'failed') continue
    for (const [value, label] of magic)
      if (new URLSearchParams(value).get('pix_key') === key)
        expect(label, `${what}: the magic value for ${key}, which answers "${message}"`).toContain(
          message,
        )
  }
}
