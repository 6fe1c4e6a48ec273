// When the contract's answers are written (src/http/turn-end.ts): what a caller would notice if
// it went wrong is an answer held for ever, a lone caller kept waiting, or an answer written
// before the calls read with it were handled.
import { describe, expect, it } from 'vitest'
import { turnEnd } from '../../src/http/turn-end.js'

const nextTurn = () => new Promise((r) => setImmediate(r))

/** `n` answers asked for from one I/O callback (a timer, as a request's read), in order. */
function turn(end: ReturnType<typeof turnEnd>, n: number): (Promise<void> | undefined)[] {
  const waits: (Promise<void> | undefined)[] = []
  for (let i = 0; i < n; i++) waits.push(end())
  return waits
}

describe('turn end', () => {
  it('answers a caller alone at once, call after call', async () => {
    const end = turnEnd()
    for (let i = 0; i < 3; i++) {
      expect(end()).toBeUndefined()
      await nextTurn()
    }
  })

  it('once calls arrive together, holds the answers of a turn to its end, then answers alone callers at once again', async () => {
    const end = turnEnd()
    // The first busy turn answers as it goes: nothing said yet that calls come together.
    expect(turn(end, 3)).toEqual([undefined, undefined, undefined])
    await nextTurn()

    const order: string[] = []
    await new Promise<void>((done) =>
      setTimeout(() => {
        const waits = turn(end, 2)
        expect(waits[0]).toBeInstanceOf(Promise)
        expect(waits[1]).toBe(waits[0])
        void waits[0]!.then(() => {
          order.push('answered')
          done()
        })
        queueMicrotask(() => order.push('microtask'))
        order.push('handled')
      }, 0),
    )
    expect(order).toEqual(['handled', 'microtask', 'answered'])

    // That turn held two; a quiet caller waits one turn more, then is answered at once.
    await nextTurn()
    const held = end()
    expect(held).toBeInstanceOf(Promise)
    await held
    expect(end()).toBeUndefined()
  })
})
