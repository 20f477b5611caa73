/** A count from possibly odd data: NaN, negatives and non-numbers are 0, fractions round down. */
export function safeCount(x: unknown): number {
  if (typeof x !== 'number' || !(x > 0)) return 0;
  return Number.isFinite(x) ? Math.floor(x) : Number.MAX_SAFE_INTEGER;
}

/** A dollar amount: NaN, negatives and non-numbers are 0; Infinity stays (it clamps to the worst tier). */
export function safeAmount(x: unknown): number {
  return typeof x === 'number' && x > 0 ? x : 0;
}
