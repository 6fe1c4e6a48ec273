// The table of helpers (src/client/helpers.ts) is read against the control plane's document: a
// row the document does not bear out stops `npm run generate`, naming the row, rather than
// writing a helper that calls nothing or cannot send what its operation requires.
import { beforeAll, describe, expect, it } from 'vitest'
import { controlDocument } from '../../scripts/control-types.js'
import { groupClass, helperModel } from '../../scripts/helpers/model.js'
import { type Document, pythonModel } from '../../scripts/python-types.js'
import { type Call, HELPERS } from '../../src/client/helpers.js'

let doc: Document
beforeAll(async () => {
  doc = (await controlDocument()) as Document
})

const settle = HELPERS.find((h) => h.name === 'settle') as Call
const model = (row: Partial<Call>) =>
  helperModel([{ ...settle, ...row } as Call], doc, pythonModel(doc))

describe('the table of helpers', () => {
  it("names a group's Python class by its singular, in English", () => {
    expect(['charges', 'companies', 'webhooks', 'deliveries'].map(groupClass)).toEqual([
      'ChargeHelpers',
      'CompanyHelpers',
      'WebhookHelpers',
      'DeliveryHelpers',
    ])
  })

  it('is what the document bears out, every row', () => {
    expect(helperModel(HELPERS, doc, pythonModel(doc))).toHaveLength(HELPERS.length)
  })

  it.each([
    [
      'an operation the document has not',
      { operation: 'POST /transfers/{transaction_id}/settel' as Call['operation'] },
      'the document has no POST /transfers/{transaction_id}/settel',
    ],
    [
      'a required field no argument carries',
      { args: [{ in: 'path', name: 'transaction_id' }] as Call['args'] },
      'no argument carries the required status',
    ],
    [
      'a field the body has not',
      {
        args: [
          { in: 'path', name: 'transaction_id' },
          { in: 'body', name: 'status' },
          { in: 'body', name: 'mesage', optional: true },
        ] as Call['args'],
      },
      'has no body field mesage',
    ],
    [
      "a path's parameter no argument fills",
      { args: [{ in: 'body', name: 'status' }] as Call['args'] },
      "no argument for the path's {transaction_id}",
    ],
    ['a message naming no argument', { what: 'settle {id}' }, 'what names {id}, no argument'],
    [
      'an answer field the answer has not',
      { answer: { field: 'balance' } },
      'TransferRecord has no required field balance',
    ],
  ])('refuses %s, naming the row', (_, row, why) => {
    expect(() => model(row)).toThrow(`src/client/helpers.ts, transfers.settle: `)
    expect(() => model(row)).toThrow(why)
  })
})
