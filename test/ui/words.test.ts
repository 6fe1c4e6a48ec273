// How the dashboard reads what people type and says what it shows: amounts in reais, durations,
// latencies, the events an advance of the clock ran, and the default scenario's magic values.
import { describe, expect, it } from 'vitest'
import { centsField } from '../../src/ui/fields.js'
import { duration, eventLine, millis } from '../../src/ui/format.js'
import { chargePresets, presetFields, presetValue, transferPresets } from '../../src/ui/magic.js'
import { startTestSandbox } from '../harness.js'

describe('words', () => {
  it('reads an amount in reais as people write it, and refuses what is not one', () => {
    const read = (v: string) => centsField(v)
    expect(
      ['10', '10,5', '10,50', '10.50', 'R$ 10,50', '1.234,56', '1.234', '1234.5'].map(read),
    ).toEqual([1000, 1050, 1050, 1050, 1050, 123456, 123400, 123450])
    expect(['', '  '].map(read)).toEqual([undefined, undefined])
    for (const bad of ['10,555', 'ten', '-5', '1e3', '10,5,5', '1.23.4'])
      expect(read(bad)).toBeNull()
  })

  it('says durations and latencies as a person would', () => {
    expect([3661, 60, 86400, 90061, 0].map(duration)).toEqual([
      '1 h 1 min 1 s',
      '1 min',
      '1 day',
      '1 day 1 h 1 min 1 s',
      '0 s',
    ])
    expect([22.753, 0.412, 1499.5, null].map(millis)).toEqual(['23 ms', '< 1 ms', '1500 ms', '?'])
    expect(
      eventLine({
        type: 'charge.cancelled',
        data: { transaction_id: 'abc', amount: 1000, reason: 'expired' },
      }),
    ).toBe('charge abc (R$ 10,00) expired')
    expect(
      eventLine({
        type: 'balance.changed',
        data: { user_id: 'u1', amount: -777, kind: 'transfer', balance: 5 },
      }),
    ).toBe('balance of u1 -R$ 7,77 (transfer), now R$ 0,05')
  })

  it("offers the default scenario's magic values by name, each filling the fields it names", async () => {
    const s = await startTestSandbox()
    try {
      const scenario = (await s.admin('GET', '/scenario')).body
      expect(transferPresets(scenario).map((p) => [p.label, presetFields(presetValue(p))])).toEqual(
        [
          [
            'is refused: 422 Insufficient balance, a transfer of more than the balance: R$ 9.999.999.999,99 (amount 999999999999)',
            { amount: 999_999_999_999 },
          ],
          [
            'fails: Pix key not found or inactive, to failed@pix.example (an inactive key)',
            { pix_key: 'failed@pix.example', pix_type: 'EMAIL' },
          ],
          [
            'stays pending, then succeeds 60 s later, a transfer to pending@pix.example',
            { pix_key: 'pending@pix.example', pix_type: 'EMAIL' },
          ],
          [
            'fails: Transfer rejected by the receiving institution, a transfer of R$ 6,66 (amount 666)',
            { amount: 666 },
          ],
          [
            'stays pending, then fails 30 s later (refunded), a transfer of R$ 7,77 (amount 777)',
            { amount: 777 },
          ],
        ],
      )
      expect(chargePresets(scenario).map((p) => p.label)).toEqual([
        'is paid 5 s later (as if a payer paid it), a charge of R$ 42,42 (amount 4242)',
      ])
      // An option's value names only known fields, whatever a page was made to send.
      expect(presetFields('amount=12&pix_key=a%40b.c&x=1&amount_gte=9')).toEqual({
        amount: 12,
        pix_key: 'a@b.c',
      })
    } finally {
      await s.close()
    }
  })
})
