/** Whole dollars with thousands separators, locale-free so explanations are identical everywhere. */
export function usd(amount: number): string {
  if (!Number.isFinite(amount)) return 'an unbounded amount';
  return `$${Math.round(amount).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** Whole months, singular or plural. */
export function months(n: number): string {
  const m = Math.round(n);
  return `${m} month${m === 1 ? '' : 's'}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
