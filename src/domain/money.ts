// Money is integer cents everywhere; it is formatted only at the edges (BR Code, BCB payloads).

export const MAX_AMOUNT = 999_999_999_999

/** 1000 -> "10.00" (the BR Code and BCB API Pix format). */
export function formatAmount(cents: number): string {
  const whole = Math.floor(cents / 100)
  return `${whole}.${String(cents % 100).padStart(2, '0')}`
}

/** "10.00" / "10.5" / "10" -> cents, without floating-point rounding. */
export function parseAmount(text: string): number {
  const [whole, frac = ''] = text.split('.')
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}
