// The measurements of a bench run, by name, one per round, and the statistics the report takes
// of them. A ratio is taken within each round, between measurements seconds apart, and the
// median over the rounds reported: this machine's speed drifts more than that over a whole run.
import type { Figures } from './load.js'

const round3 = (x: number) => Math.round(x * 1000) / 1000
/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]): number => {
  const xs = [...values].sort((x, y) => x - y)
  const mid = xs.length / 2
  return xs.length % 2 ? xs[Math.floor(mid)]! : (xs[mid - 1]! + xs[mid]!) / 2
}

export class Samples {
  readonly #byName = new Map<string, Figures[]>()

  add(name: string, f: Figures): void {
    this.#byName.set(name, [...(this.#byName.get(name) ?? []), f])
  }

  /** The mean of a figure over the rounds. */
  mean(name: string): Figures {
    const xs = this.#get(name)
    const avg = (pick: (f: Figures) => number) => xs.reduce((a, x) => a + pick(x), 0) / xs.length
    return {
      rps: avg((f) => f.rps),
      p50: Math.round(avg((f) => f.p50) * 10) / 10,
      p99: Math.round(avg((f) => f.p99) * 10) / 10,
      non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
    }
  }

  /** The median over the rounds of one figure (the 99th percentile, say): one stalled round does not decide it. */
  median(name: string, pick: (f: Figures) => number): number {
    return Math.round(median(this.#get(name).map(pick)) * 10) / 10
  }

  /** The median over the rounds of the ratio of `a`'s requests per second to `b`'s. */
  ratio(a: string, b: string): number {
    return round3(median(this.#ratios(a, b)))
  }

  /** How far apart the rounds' ratios lie: (max - min) / median. */
  spread(a: string, b: string): number {
    const xs = this.#ratios(a, b)
    return round3((xs.at(-1)! - xs[0]!) / xs[Math.floor(xs.length / 2)]!)
  }

  /** Every round's figures of one measurement. */
  all(name: string): Figures[] {
    return [...this.#get(name)]
  }

  /** Requests per second of every measurement, round by round: the noise the medians hide. */
  rounds(): Record<string, number[]> {
    return Object.fromEntries(
      [...this.#byName].map(([name, xs]) => [name, xs.map((f) => Math.round(f.rps))]),
    )
  }

  #ratios(a: string, b: string): number[] {
    const bs = this.#get(b)
    return this.#get(a)
      .map((f, i) => f.rps / bs[i]!.rps)
      .sort((x, y) => x - y)
  }

  #get(name: string): Figures[] {
    const xs = this.#byName.get(name)
    if (!xs?.length) throw new Error(`no measurement named "${name}"`)
    return xs
  }
}
