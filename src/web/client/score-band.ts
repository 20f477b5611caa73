import { NOT_ENOUGH_DATA } from '../../shared/completeness-notes';

/**
 * Reading aid of the page only (not part of the API): four bands of the 0-100 score, each with a
 * word, so colour is never the only cue. Higher = better; a clean record scores 100 (docs/scoring.md).
 */
export type Band = { cls: 'good' | 'fair' | 'poor' | 'bad' | 'none'; label: string };

export const BANDS: { min: number; band: Band }[] = [
  { min: 90, band: { cls: 'good', label: 'Good' } },
  { min: 75, band: { cls: 'fair', label: 'Fair' } },
  { min: 50, band: { cls: 'poor', label: 'Poor' } },
  { min: 0, band: { cls: 'bad', label: 'Very poor' } },
];

export function bandOf(score: number): Band {
  return (BANDS.find((b) => score >= b.min) ?? BANDS[BANDS.length - 1]!).band;
}

/** Shown in place of a band when the data is not enough to judge the facility (data_sufficient false): grey, so no colour ranks it. */
export const NOT_ENOUGH_DATA_BAND: Band = { cls: 'none', label: NOT_ENOUGH_DATA };

/** The band of a score, or NOT_ENOUGH_DATA_BAND when the data cannot judge the facility. */
export function bandFor(score: number, sufficient: boolean): Band {
  return sufficient ? bandOf(score) : NOT_ENOUGH_DATA_BAND;
}

/** "72 (Poor)". */
export function scoreText(score: number): string {
  return `${score} (${bandOf(score).label})`;
}

/** Range text of a band, for legends: "90-100". */
export function bandRange(i: number): string {
  const lo = BANDS[i]!.min;
  const hi = i === 0 ? 100 : BANDS[i - 1]!.min - 1;
  return `${lo}–${hi}`;
}
