// The end of the turn the contract's answers wait for (src/http/turn-end.ts): what a caller
// would notice if it went wrong is an answer held for ever, or written before the calls read
// with it were handled.
import { describe, expect, it } from 'vitest'
import { turnEnd } from '../../src/http/turn-end.js'

describe('turn end', () => {
  it('is one promise for every answer of a turn, and a new one for the next turn', async () => {
    const end = turnEnd()
    const first = end()
    expect(end()).toBe(first)
    await first
    const next = end()
    expect(next).not.toBe(first)
    await next
  })

  it('resolves after what the turn has still to run: its microtasks and the timers that were due', async () => {
    const end = turnEnd()
    const order: string[] = []
    await new Promise<void>((done) =>
      // From a timer, as from a request's I/O: the turn's check phase comes after it.
      setTimeout(() => {
        void end().then(() => {
          order.push('answered')
          done()
        })
        queueMicrotask(() => order.push('microtask'))
        order.push('handled')
      }, 0),
    )
    expect(order).toEqual(['handled', 'microtask', 'answered'])
  })
})
