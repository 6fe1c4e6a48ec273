// Fake people and companies (pt_BR) for payers and new tenants. Faker takes ~80 ms and ~7 MB to
// load, and most sessions never pay a charge without naming the payer: it loads on first need,
// and users of it await `ready()` first. With SEED, the data is the same from run to run.
import { createHash } from 'node:crypto'
import type { Faker } from '@faker-js/faker'
import type { Payer } from './domain/types.js'

export interface Fakes {
  /** Loads faker once; resolves when payer() and companyName() may be called. */
  ready(): Promise<void>
  readonly loaded: boolean
  payer(): Payer
  companyName(): string
}

/** A CPF with valid check digits, from nine random digits. */
export function cpfFrom(random: () => number): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(random() * 10))
  for (const len of [9, 10]) {
    const sum = digits.slice(0, len).reduce((acc, d, i) => acc + d * (len + 1 - i), 0)
    const rest = (sum * 10) % 11
    digits.push(rest === 10 ? 0 : rest)
  }
  return digits.join('')
}

export function createFakes(seed?: string): Fakes {
  let faker: Faker | undefined
  let loading: Promise<void> | undefined
  const ready = () =>
    (loading ??= import('@faker-js/faker/locale/pt_BR').then((m) => {
      faker = m.faker
      if (seed !== undefined)
        faker.seed(createHash('sha256').update(`fakes:${seed}`).digest().readUInt32LE(0))
    }))
  const loaded = () => {
    if (!faker) throw new Error('fake data used before `ready()` resolved')
    return faker
  }
  return {
    ready,
    get loaded() {
      return faker !== undefined
    },
    payer() {
      const f = loaded()
      return {
        name: f.person.fullName(),
        document: cpfFrom(() => f.number.float({ min: 0, max: 0.9999999 })),
      }
    },
    companyName: () => loaded().company.name(),
  }
}
