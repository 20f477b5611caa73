/**
 * How a facility stands among its industry peers, in words: one wording for the PDF and the web
 * page. No imports: the page's bundle (scripts/build-web.ts) takes this file as it is.
 */

/** A share as a whole percent, "<1%" for a small share that is not none. */
function percent(share: number): string {
  return share > 0 && share < 0.005 ? '<1%' : `${Math.round(100 * share)}%`;
}

/** "Tied with N% of peers at the top score", or "N% of peers score better; tied with M%". */
export function peerStanding(better: number, tied: number): string {
  if (better === 0) return `Tied with ${percent(tied)} of peers at the top score`;
  return `${percent(better)} of peers score better; tied with ${percent(tied)}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st... */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
