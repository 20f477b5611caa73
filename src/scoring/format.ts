import type { Program } from './model';

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

/** "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The as-of date as explanations name it. */
export const dataDate = (asOf: string) => `the data date (${asOf})`;

/** Program names in plain words (the acronyms are EPA's shorthand). */
export const PROGRAM_NAMES: Record<Program, string> = {
  caa: 'the Clean Air Act',
  cwa: 'the Clean Water Act',
  rcra: 'the hazardous waste law (RCRA)',
  sdwa: 'the Safe Drinking Water Act',
};

export const programList = (names: readonly string[]) => listOf(names.map((n) => PROGRAM_NAMES[n as Program] ?? n.toUpperCase()));
