// Chaos and jitter decisions. Each is a number in [0, 1) drawn per delivery, attempt and kind:
// from a hash of SEED when it is set (the same run makes the same decisions, whatever the
// timing), from the system's randomness otherwise.
import { createHash, randomInt } from 'node:crypto'

export type Roll = (deliveryId: string, attempt: number, kind: string) => number

export function createRoll(seed?: string): Roll {
  if (seed === undefined) return () => randomInt(0, 2 ** 32) / 2 ** 32
  return (deliveryId, attempt, kind) =>
    createHash('sha256')
      .update(`${seed}:${deliveryId}:${attempt}:${kind}`)
      .digest()
      .readUInt32LE(0) /
    2 ** 32
}
