import type { ScoreFacts } from './facts';
import { usd, plural } from './format';
import { MAX_POINTS } from './model';
import { ANY_PENALTY_POINTS, PENALTY_FLOOR_USD, POINTS_PER_TENFOLD_PENALTY, pointsLeft } from './rules';

/** How many tenfolds above the floor an amount is, clamped to what the remaining points can take. */
function tenfolds(amount: number): number {
  const maxTenfolds = (MAX_POINTS.penalty_severity - ANY_PENALTY_POINTS) / POINTS_PER_TENFOLD_PENALTY;
  if (!(amount > PENALTY_FLOOR_USD)) return 0;
  return Math.min(maxTenfolds, Math.log10(amount / PENALTY_FLOOR_USD));
}

/**
 * 0-30, on a log scale because 5-year penalties run from a few hundred dollars to hundreds of
 * millions: no penalty 30; any penalty (even of unknown amount) 25; then 5 fewer per tenfold
 * above $1,000: $10k 20, $100k 15, $1M 10, $10M 5, $100M or more 0.
 */
export function penaltySeverityPoints(f: ScoreFacts): number {
  if (f.penaltyCount === 0 && f.penaltyUsd === 0) return MAX_POINTS.penalty_severity;
  const lost = ANY_PENALTY_POINTS + POINTS_PER_TENFOLD_PENALTY * tenfolds(f.penaltyUsd);
  return pointsLeft(MAX_POINTS.penalty_severity, lost);
}

export function explainPenaltySeverity(f: ScoreFacts): string {
  if (f.penaltyCount === 0 && f.penaltyUsd === 0) {
    const unreported = f.notReported.includes('total_penalties_usd') && f.notReported.includes('penalty_count');
    return unreported ? 'Penalties not reported by the source; none shown' : 'No penalties in the last 5 years';
  }
  const amount = f.penaltyUsd > 0 ? `${usd(f.penaltyUsd)} in penalties` : 'Penalties of unreported amount';
  return `${amount} in the last 5 years (${plural(f.penaltyCount, 'penalty', 'penalties')})`;
}
