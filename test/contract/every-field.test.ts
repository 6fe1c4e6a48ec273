// Every field of a contract request travels end to end: sent with every optional field set (each
// at its documented example), it is in the record the control plane answers, under its own name,
// and its text (a number's digits, an amount in reais) is on the record's dashboard page and in its
// row of the dashboard's list, to the admin and to the company that sent it (unless
// named in NOT_LISTED, with the reason). The fields come from /openapi.json, so a new one is
// covered without being named here: a use case or a mapper that drops it, or a page or a list
// that does not show it, fails this test. And the dashboard's form for each (New charge, Send a
// transfer) has a control for each field and sends it as the contract call (unless named in
// NOT_IN_FORM, with the reason). A text sent empty is said to be empty on its page, not hidden
// as if never sent. And an optional field does what it is for: sent at its example,
// it changes the record beyond itself (an override whose example is the default's value shows
// nothing), unless ECHOED says it is only kept as sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, dashboardCookie, startTestSandbox, type TestSandbox } from '../harness.js'
import { signIn } from '../ui/forms.js'
import { brl } from '../../src/ui/format.js'
import { EMPTY_TEXT } from '../../src/ui/kept-text.js'

type Json = Record<string, any>

/** Where the record of what each contract POST creates is read (control plane and dashboard). */
const RECORDS: Record<string, string> = {
  'POST /hub/transactions/in': 'charges',
  'POST /hub/transactions/out': 'transfers',
}
/** The text fields the dashboard's list leaves to the record's page, and why. */
const NOT_LISTED: Record<string, string> = {
  'POST /hub/transactions/in description': "free text of up to 140 characters: the charge's page",
  'POST /hub/transactions/in payload': "a BR Code of up to 512 characters: the charge's page",
  'POST /hub/transactions/out description':
    "free text of up to 140 characters: the transfer's page",
}
/** The optional fields that are only kept and shown (they change nothing else in the record), and why. */
const ECHOED: Record<string, string> = {
  'POST /hub/transactions/in description': "the merchant's text, kept and shown",
  'POST /hub/transactions/in payload': "a BR Code reused: it becomes the record's qr_code, as sent",
  'POST /hub/transactions/out description': "the merchant's text, kept and shown",
}
/** Texts a record keeps exactly as sent. */
const AS_SENT = ['  Pedido Nº 42: Ação  ', '']
/** The dashboard's form that makes each call, as QA people make it (docs/DASHBOARD.md). */
const FORMS: Record<string, string> = {
  'POST /hub/transactions/in': '/charges/new',
  'POST /hub/transactions/out': '/transfers/new',
}
/** The fields a form does not send, and why. */
const NOT_IN_FORM: Record<string, string> = {
  'POST /hub/transactions/in payload':
    "a BR Code the client brings: the form makes a new charge, and Pay a code pays a code's charge",
}
/** The number fields in cents, which the dashboard shows in reais ("R$ 10,00"); other numbers as their digits. */
const CENTS = new Set(['amount'])
/** What the dashboard shows of a value sent, escaped as in its HTML. */
const shown = (field: string, sent: unknown): string =>
  typeof sent === 'number'
    ? CENTS.has(field)
      ? escaped(brl(sent))
      : String(sent)
    : escaped(String(sent))

/** A request field the record keeps under another name. */
const KEPT_AS: Record<string, string> = { payload: 'qr_code' }

let sb: TestSandbox
let doc: Json
let cookie: string
/** The dashboard as the company that makes the calls sees it (its own records only). */
let companyCookie: string
beforeAll(async () => {
  sb = await startTestSandbox()
  doc = (await sb.request('GET', '/openapi.json')).body
  cookie = await dashboardCookie(sb)
  companyCookie = (
    await signIn(sb, { client_id: 'sandbox-client', client_secret: 'sandbox-secret' })
  ).cookie
})
afterAll(() => sb.close())

const schemaOf = (s: Json): Json => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s)

/** A value for a field the document gives no example of, made by a call a client would make. */
const madeFor: Record<string, (body: Json) => Promise<unknown>> = {
  // A BR Code to reuse: another charge's, for the same amount.
  payload: async (body) =>
    (
      await sb.request('POST', '/api/v1/hub/transactions/in', {
        auth: AUTH.main,
        json: { amount: body.amount },
      })
    ).body.qr_code,
}

const escaped = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/** What a form's control named `field` holds: an input's value, a textarea's text, a select's chosen option. */
function keptIn(form: string, field: string): string | undefined {
  const input = form.match(new RegExp(`<input[^>]*name="${field}"[^>]*>`))?.[0]
  if (input) return input.match(/value="([^"]*)"/)?.[1]
  const area = form.match(new RegExp(`<textarea[^>]*name="${field}"[^>]*>([^<]*)</textarea>`))
  if (area) return area[1]
  const select = form.match(new RegExp(`<select[^>]*name="${field}"[^>]*>([\\s\\S]*?)</select>`))
  return select?.[1]?.match(/<option value="([^"]*)" selected/)?.[1]
}

/** The request body of `operation` (`POST /path`) with every field set, each at its example. */
async function everyField(operation: string): Promise<Json> {
  const [, path] = operation.split(' ') as [string, string]
  const schema = requestSchema(path)
  const body: Json = { ...schema.example }
  for (const [field, property] of Object.entries<Json>(schema.properties)) {
    if (field in body) continue
    const example = property.example ?? (await madeFor[field]?.(body))
    expect(example, `${operation}: ${field} has no example to send`).toBeDefined()
    body[field] = example
  }
  expect(Object.keys(body).sort()).toEqual(Object.keys(schema.properties).sort())
  return body
}

const requestSchema = (path: string): Json =>
  schemaOf(doc.paths[path].post.requestBody.content['application/json'].schema)

/**
 * A free text as long as the field takes (40 characters where it publishes no bound), as a person
 * types it: mixed case, accents, spaces inside, two in a row too (kept as typed, as the contract
 * keeps them), but none at its ends (the forms trim those); none for a field whose text is a
 * choice or has a shape (an enum, a pattern, a format).
 */
function typedText(property: Json): string | undefined {
  const text = [property, ...(property.anyOf ?? [])].find((p: Json) =>
    [p.type].flat().includes('string'),
  )
  if (!text || text.enum || text.pattern || text.format) return undefined
  const length = text.maxLength ?? 40
  return 'Pedido Nº 42:  Ação já Paga '
    .repeat(length)
    .slice(0, length - 1)
    .trimEnd()
    .padEnd(length, 'x')
}

/** The fields a call to `path` requires, and `body` cut down to them. */
function requiredOf(path: string, body: Json): { required: Set<string>; minimal: Json } {
  const required = new Set<string>(requestSchema(path).required ?? [])
  return {
    required,
    minimal: Object.fromEntries(Object.entries(body).filter(([f]) => required.has(f))),
  }
}

describe('a contract request with every field set', () => {
  it('names where each operation that creates something keeps its record', () => {
    const creating = Object.entries<Json>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m === 'post')
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(creating.sort()).toEqual(Object.keys(RECORDS).sort())
    // And NOT_LISTED and ECHOED name fields that exist.
    for (const entry of [...Object.keys(NOT_LISTED), ...Object.keys(ECHOED)]) {
      const [method, path, field] = entry.split(' ') as [string, string, string]
      const body = doc.paths[path]?.[method.toLowerCase()]?.requestBody
      const schema = body && schemaOf(body.content['application/json'].schema)
      expect(schema?.properties?.[field], entry).toBeDefined()
    }
  })

  it.each(Object.entries(RECORDS))(
    '%s: each field is in the record, under its own name, and its text on the record page and in its row of the list, sent with the others or alone',
    async (operation, collection) => {
      const [, path] = operation.split(' ') as [string, string]
      const full = await everyField(operation)
      const ui = async (at: string, as = cookie) =>
        (await fetch(`${sb.url}/_sandbox/ui/${at}`, { headers: { cookie: as } })).text()
      /** The row of record `id` in the dashboard's list, as `as` sees it. */
      const rowOf = async (id: string, as = cookie, who = 'the admin') => {
        const list = await ui(collection, as)
        const rowStart = list.indexOf(`data-id="${id}"`)
        expect(
          rowStart,
          `${operation}: its row in the ${collection} list, to ${who}`,
        ).toBeGreaterThan(0)
        return list.slice(rowStart, list.indexOf('</tr>', rowStart))
      }
      /** Sends `body`: the record made and its page, or none where the contract refuses it. */
      const made = async (body: Json) => {
        const answer = await sb.request('POST', `/api/v1${path}`, { auth: AUTH.main, json: body })
        if (answer.status !== 200) return { refused: answer.text }
        const id: string = answer.body.transaction_id
        const record = (await sb.admin('GET', `/${collection}/${id}`)).body
        const page = await ui(`${collection}/${encodeURIComponent(id)}`)
        return { id, record, page }
      }
      /**
       * Sends `body`: each field in the record, on its page and in its row, as the admin sees
       * them and as the company that sent it does; the admin's page and row.
       */
      const shownOf = async (body: Json) => {
        const answer = await made(body)
        expect(answer.refused, `${operation} refused ${JSON.stringify(body)}`).toBeUndefined()
        const { id, record } = answer as Required<typeof answer>
        const sent = Object.keys(body).join(', ')
        for (const [field, value] of Object.entries(body)) {
          const kept = KEPT_AS[field] ?? field
          expect(record[kept], `${operation} (${sent}): the record's ${kept}`).toEqual(value)
        }
        const seen = []
        for (const [who, as] of [
          ['the admin', cookie],
          ['its company', companyCookie],
        ] as const) {
          const page = await ui(`${collection}/${encodeURIComponent(id)}`, as)
          const row = await rowOf(id, as, who)
          for (const [field, value] of Object.entries(body)) {
            const text = shown(field, value)
            expect(
              page,
              `${operation} (${sent}): ${field} on the ${collection} page, to ${who}`,
            ).toContain(text)
            if (!(`${operation} ${field}` in NOT_LISTED))
              expect(row, `${operation} (${sent}): ${field} in its row, to ${who}`).toContain(text)
          }
          seen.push({ page, row })
        }
        return seen[0]!
      }
      const all = await shownOf(full)
      const { required, minimal } = requiredOf(path, full)
      const times = (html: string, text: string) => html.split(text).length - 1
      for (const field of Object.keys(full).filter((f) => !required.has(f))) {
        // Alone (with the required ones), it is shown all the same; left out, its place shows
        // no other field's text in its stead.
        await shownOf({ ...minimal, [field]: full[field] })
        const { [field]: _left, ...others } = full
        const without = await shownOf(others)
        for (const [other, value] of Object.entries(others)) {
          const text = shown(other, value)
          for (const part of ['page', 'row'] as const)
            expect(
              times(without[part], text),
              `${operation} without ${field}: ${other}'s text on the ${part === 'row' ? "list's row" : 'page'}`,
            ).toBe(times(all[part], text))
        }
      }
      // The longest text a field takes is shown whole, on the page and in the row: nothing cut.
      const properties = requestSchema(path).properties as Record<string, Json>
      for (const [field, property] of Object.entries(properties).filter(
        ([f]) => !required.has(f),
      )) {
        const text = typedText(property)
        // A text the contract refuses (a BR Code must be one) tells nothing here.
        if (text !== undefined && !(await made({ ...minimal, [field]: text })).refused)
          await shownOf({ ...minimal, [field]: text })
      }
      // A text sent empty is kept so (AS_SENT), and its page says so, and its row where the
      // list shows the field: "" is not null, which shows nothing (a "" the contract refuses, a
      // BR Code's, tells nothing here).
      const none = await made(minimal)
      const rowOfNone = await rowOf(none.id!)
      for (const field of Object.keys(full).filter(
        (f) => !required.has(f) && typeof full[f] === 'string',
      )) {
        const { id, page } = await made({ ...minimal, [field]: '' })
        if (page === undefined) continue
        expect(
          times(page, escaped(EMPTY_TEXT)),
          `${operation}: ${field} sent as "" is said to be empty on the ${collection} page (KeptText, src/ui/kept-text.tsx)`,
        ).toBe(times(none.page!, escaped(EMPTY_TEXT)) + 1)
        if (!(`${operation} ${field}` in NOT_LISTED))
          expect(
            times(await rowOf(id!), escaped(EMPTY_TEXT)),
            `${operation}: ${field} sent as "" is said to be empty in its row of the ${collection} list`,
          ).toBe(times(rowOfNone, escaped(EMPTY_TEXT)) + 1)
      }
    },
  )

  it.each(Object.entries(RECORDS))(
    '%s: each optional field changes the record beyond itself, or ECHOED says why not; null is absent',
    async (operation, collection) => {
      const [, path] = operation.split(' ') as [string, string]
      const full = await everyField(operation)
      const { required, minimal } = requiredOf(path, full)
      /** The record a call makes, or none where the contract refuses the body. */
      const madeBy = async (json: Json): Promise<Json | undefined> => {
        const answer = await sb.request('POST', `/api/v1${path}`, { auth: AUTH.main, json })
        if (answer.status !== 200) return undefined
        return (await sb.admin('GET', `/${collection}/${answer.body.transaction_id}`)).body
      }
      const recordOf = async (json: Json): Promise<Json> => {
        const record = await madeBy(json)
        expect(record, `${operation} refused ${JSON.stringify(json)}`).toBeDefined()
        return record!
      }
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
      const [one, two] = [await recordOf(minimal), await recordOf(minimal)]
      // What differs between two calls alike (the id, and what carries it) tells nothing.
      const noisy = new Set(Object.keys(one).filter((k) => !same(one[k], two[k])))
      const without = (r: Json) => JSON.stringify(Object.entries(r).filter(([k]) => !noisy.has(k)))
      for (const field of Object.keys(full).filter((f) => !required.has(f))) {
        // An optional field is `X | None = None` in FastAPI's models (test/fidelity/reference_app.py):
        // null is taken, and means absent (docs/CONTRACT.md#body-rules).
        expect(
          without(await recordOf({ ...minimal, [field]: null })),
          `${operation}: ${field} sent as null is kept as if absent`,
        ).toBe(without(one))
        // Text is kept as sent, byte for byte: its case, its spaces, an empty string (a value
        // the contract refuses, a BR Code's say, tells nothing here).
        if (typeof full[field] === 'string')
          for (const text of AS_SENT) {
            const kept = await madeBy({ ...minimal, [field]: text })
            if (kept)
              expect(
                kept[KEPT_AS[field] ?? field],
                `${operation}: ${field} sent as ${JSON.stringify(text)}`,
              ).toBe(text)
          }
        if (`${operation} ${field}` in ECHOED) continue
        const withField = await recordOf({ ...minimal, [field]: full[field] })
        const changed = Object.keys(withField).filter(
          (k) =>
            !noisy.has(k) && k !== field && k !== KEPT_AS[field] && !same(withField[k], one[k]),
        )
        expect(
          changed,
          `${operation}: ${field} at its example changes nothing in the record but itself: give it an example that does what it is for (not a default's value), or say in ECHOED that it is kept as sent only`,
        ).not.toEqual([])
      }
    },
  )
})

describe("the dashboard's form for each call", () => {
  it.each(Object.entries(FORMS))(
    '%s: %s sends each field, as the contract call',
    async (operation, action) => {
      const [, path] = operation.split(' ') as [string, string]
      const schema = schemaOf(doc.paths[path].post.requestBody.content['application/json'].schema)
      const sent: Json = {}
      for (const [field, property] of Object.entries<Json>(schema.properties))
        if (!(`${operation} ${field}` in NOT_IN_FORM))
          sent[field] = typedText(property) ?? schema.example?.[field] ?? property.example
      expect(
        Object.values<Json>(schema.properties).some((p) => typedText(p) !== undefined),
        `${operation}: a free text field, typed as a person types it`,
      ).toBe(true)
      const form = Object.fromEntries(
        Object.entries(sent).map(([field, value]) => [
          field,
          // The amount as a person types it (R$): 12,34.
          field === 'amount' ? (value / 100).toFixed(2).replace('.', ',') : String(value),
        ]),
      )
      // The form a person fills has a control for each field it sends.
      const page = await (
        await fetch(`${sb.url}/_sandbox/ui/${RECORDS[operation]}`, { headers: { cookie } })
      ).text()
      const start = page.indexOf(`action="/_sandbox/ui${action}"`)
      expect(start, `the form posting to ${action}`).toBeGreaterThan(0)
      const html = page.slice(start, page.indexOf('</form>', start))
      expect(
        Object.keys(form).filter((field) => !html.includes(`name="${field}"`)),
        `${action}: the fields its form has no control for`,
      ).toEqual([])
      // A control takes as many characters as the contract does: its maxlength is the published bound.
      for (const [field, property] of Object.entries<Json>(schema.properties)) {
        const bound = [property, ...(property.anyOf ?? [])].find(
          (p: Json) => p.maxLength,
        )?.maxLength
        const control = html.match(new RegExp(`<(?:input|textarea)[^>]*name="${field}"[^>]*>`))?.[0]
        if (bound === undefined || control === undefined) continue
        expect(control.match(/maxlength="(\d+)"/)?.[1], `${action}: ${field}'s maxlength`).toBe(
          String(bound),
        )
      }
      const own = await startTestSandbox()
      try {
        const ui = await signIn(own, { token: own.adminToken })
        await ui.post(action, { as: 'sandbox-client', ...form })
        const journal = (await own.admin('GET', `/requests?path=/api/v1${path}`)).body.data
        expect(journal.map((e: Json) => e.request.body)).toEqual([sent])
        // Refused (an amount of nothing), the form comes back holding what was typed, each value
        // in its own control, to correct and send again (each text told apart by its field's name).
        const typed = Object.fromEntries(
          Object.entries(form)
            .filter(([field]) => field !== 'amount')
            .map(([field, value]) => [
              field,
              typedText(schema.properties[field])
                ? `${field} ${value}`.slice(0, value.length)
                : value,
            ]),
        )
        const { page: back } = await ui.post(action, {
          as: 'sandbox-client',
          ...typed,
          amount: '0',
        })
        const at = back.indexOf(`action="/_sandbox/ui${action}"`)
        const again = back.slice(at, back.indexOf('</form>', at))
        for (const [field, value] of Object.entries(typed))
          expect(keptIn(again, field), `${action}: refused, ${field} holds`).toBe(
            escaped(value).replaceAll('"', '&quot;'),
          )
      } finally {
        await own.close()
      }
    },
  )
})
