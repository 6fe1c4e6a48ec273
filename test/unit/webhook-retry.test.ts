// The retry schedule of webhook deliveries, and what Retry-After may change in it.
import { expect, it } from 'vitest'
import { retryDelay } from '../../src/webhooks/retry.js'

const schedule = [1, 5, 30]

it('follows the schedule with up to 10% jitter, and stops when it is spent', () => {
  expect(retryDelay(schedule, 1, null, 0)).toBe(1)
  expect(retryDelay(schedule, 2, null, 0.5)).toBeCloseTo(5.25)
  expect(retryDelay(schedule, 3, null, 0.999)).toBeLessThan(33)
  expect(retryDelay(schedule, 4, null, 0)).toBeNull()
})

it('takes Retry-After within the schedule bounds, and never for an attempt the schedule does not have', () => {
  expect(retryDelay(schedule, 1, 12, 0)).toBe(12)
  expect(retryDelay(schedule, 1, 0, 0)).toBe(1)
  expect(retryDelay(schedule, 2, 86_400, 0)).toBe(30)
  expect(retryDelay(schedule, 4, 0, 0)).toBeNull()
  expect(retryDelay(schedule, 4, 86_400, 0)).toBeNull()
})
