/**
 * Reading aid of the page only (not part of the API): four bands of the 0-100 score, each with a
 * word, so colour is never the only cue. Higher = better; a clean record scores 100 (docs/scoring.md).
 */
export type Band = { cls: 'good' | 'fair' | 'poor' | 'bad'; label: string };

export const BANDS: { min: number; band: Band }[] = [
  { min: 90, band: { cls: 'good', label: 'Good' } },
  { min: 75, band: { cls: 'fair', label: 'Fair' } },
  { min: 50, band: { cls: 'poor', label: 'Poor' } },
  { min: 0, band: { cls: 'bad', label: 'Very poor' } },
];

export function bandOf(score: number): Band {
  return (BANDS.find((b) => score >= b.min) ?? BANDS[BANDS.length - 1]!).band;
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
