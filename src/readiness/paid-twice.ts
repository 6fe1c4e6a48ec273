// Two payouts where the client meant one (docs/READINESS.md#the-findings): a transfer went through
// but its answer was lost, and another of the same amount to the same key went through after it.
// An error (paid_twice) where the sandbox is sure: the same description, or the second sent before
// the client could know the first went through. The client knows once its receiver has the first
// one's settling webhook (transfer.succeeded or transfer.failed), from the moment that delivery
// was sent, if the receiver acknowledged it: then a second with another description may be a new
// payout made knowing (another order to the same seller), a warning a person confirms
// (paid_twice_unconfirmed). The acknowledgement may be seen after the second call (the receiver
// answers once it has told its client, who pays at once), so such a pair waits for it; meanwhile,
// and when none comes, it counts as paid_twice.
import type { Entry } from './book.js'
import { F } from './catalog.js'
import type { Observing } from './observing.js'
import { CALLS_KEPT, learn, type Sent } from './retry-state.js'

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export function paidTwiceJudge({ book, example }: Pick<Observing, 'book' | 'example'>) {
  function note(owner: string, e: Entry, finding: number, ex: () => ReturnType<typeof example>) {
    if (!book.again(owner, e, finding)) book.first(owner, e, finding, ex())
  }

  /** The pair `first` (its answer lost `since` ms before `second` arrived) and `second`, both debited. */
  function paid(
    owner: string,
    e: Entry,
    first: Sent,
    second: Sent,
    since: number,
    inFlight: string,
  ) {
    const bit = 1 << F.paid_twice
    if (second.counted & bit) return
    second.counted |= bit
    const ids =
      first.transactionId && second.transactionId
        ? ` (${first.transactionId}, then ${second.transactionId})`
        : ''
    const sure = example(
      owner,
      second.method,
      second.path,
      second.at,
      `a transfer of the same amount and pix_key sent ${seconds(since)} after ${first.lost}${inFlight}: both went through, two debits${ids}`,
    )
    const tx = first.transactionId
    if (first.same === second.same || tx === null) return note(owner, e, F.paid_twice, () => sure)
    const unsure = (ms: number) => ({
      ...example(
        owner,
        second.method,
        second.path,
        second.at,
        `a transfer of the same amount and pix_key, with another description, sent ${seconds(since)} after ${first.lost} and ${seconds(ms)} after your receiver took the first one's settling webhook: both went through${ids}; a new payout made knowing, or the first paid twice?`,
      ),
      wallAt: sure.wallAt,
    })
    const learnt = e.retry.learnt?.get(tx)
    if (learnt !== undefined)
      return decide(owner, e, { sure, unsure, learnt, arrivedMs: second.arrivedMs })
    const list = (e.retry.undecided ??= [])
    list.push({ transactionId: tx, arrivedMs: second.arrivedMs, sure, unsure })
    if (list.length > CALLS_KEPT) decide(owner, e, list.shift()!)
    book.touched(owner, e)
  }

  /** Counts an undecided pair: the webhook reached the receiver `learnt` (undefined: never) before or after the second. */
  function decide(
    owner: string,
    e: Entry,
    u: {
      sure: ReturnType<typeof example>
      unsure: (ms: number) => ReturnType<typeof example>
      arrivedMs: number
      learnt?: number
    },
  ): void {
    if (u.learnt !== undefined && u.learnt < u.arrivedMs)
      note(owner, e, F.paid_twice_unconfirmed, () => u.unsure(u.arrivedMs - u.learnt!))
    else note(owner, e, F.paid_twice, () => u.sure)
  }

  /** A receiver acknowledged transaction `tx`'s settling webhook, sent at `sentMs`: the pairs waiting for it are decided. */
  function learnt(owner: string, e: Entry, tx: string, sentMs: number): void {
    const at = learn(e.retry, tx, sentMs)
    const list = e.retry.undecided
    if (!list?.some((u) => u.transactionId === tx)) return
    for (const u of list) if (u.transactionId === tx) decide(owner, e, { ...u, learnt: at })
    const left = list.filter((u) => u.transactionId !== tx)
    e.retry.undecided = left.length ? left : null
  }

  /** Pairs whose second arrived before `beforeMs` are decided as they stand (no acknowledgement came). */
  function expire(owner: string, e: Entry, beforeMs: number): void {
    const list = e.retry.undecided
    if (!list?.some((u) => u.arrivedMs < beforeMs)) return
    for (const u of list) if (u.arrivedMs < beforeMs) decide(owner, e, u)
    const left = list.filter((u) => u.arrivedMs >= beforeMs)
    e.retry.undecided = left.length ? left : null
  }

  return { paid, learnt, expire }
}

export type PaidTwiceJudge = ReturnType<typeof paidTwiceJudge>
