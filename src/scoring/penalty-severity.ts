import type { ScoreFacts } from './facts';
import { plural, usd } from './format';
import { MAX_POINTS } from './model';
import { ANY_PENALTY_POINTS, PENALTY_FLOOR_USD, POINTS_PER_TENFOLD_PENALTY, pointsLeft, UNANSWERED_SNC_PENALTY_SEVERITY_LOST } from './rules';
import { isUnansweredSnc } from './snc';

/** How many tenfolds above the floor an amount is, clamped to what the remaining points can take. */
function tenfolds(amount: number): number {
  const maxTenfolds = (MAX_POINTS.penalty_severity - ANY_PENALTY_POINTS) / POINTS_PER_TENFOLD_PENALTY;
  if (!(amount > PENALTY_FLOOR_USD)) return 0;
  return Math.min(maxTenfolds, Math.log10(amount / PENALTY_FLOOR_USD));
}

/**
 * 0-30, on a log scale because 5-year penalties run from a few hundred dollars to hundreds of
 * millions: no penalty 30; any penalty (even of unknown amount) 25; then 5 fewer per tenfold
 * above $1,000: $10k 20, $100k 15, $1M 10, $10M 5, $100M or more 0. Only penalties in the 5-year
 * window count: a last penalty dated before it is not one of them. fcs-4.0: the component scores the
 * gravity shown, by penalties or by a significant violation left without an enforcement response,
 * which counts as the top band (0): no penalty on an answered SNC can cost more than leaving it unanswered.
 */
export function penaltySeverityPoints(f: ScoreFacts): number {
  const snc = isUnansweredSnc(f) ? UNANSWERED_SNC_PENALTY_SEVERITY_LOST : 0;
  if (f.penalties.count === 0 && f.penaltyUsd === 0) return pointsLeft(MAX_POINTS.penalty_severity, snc);
  const lost = ANY_PENALTY_POINTS + POINTS_PER_TENFOLD_PENALTY * tenfolds(f.penaltyUsd);
  return pointsLeft(MAX_POINTS.penalty_severity, Math.max(lost, snc));
}

/** " (the latest on record, on 2012-05-01, is older)" for an event of this kind dated before the window. */
export function olderNote(older: string | null, what = 'the latest on record'): string {
  return older === null ? '' : ` (${what}, on ${older}, is older)`;
}

export function explainPenaltySeverity(f: ScoreFacts): string {
  const text = penaltyPhrase(f);
  return isUnansweredSnc(f) ? `${text}; in significant violation now with no enforcement response, which counts as the gravest penalty band` : text;
}

function penaltyPhrase(f: ScoreFacts): string {
  if (f.penalties.count === 0 && f.penaltyUsd === 0) {
    const unreported = f.notReported.includes('total_penalties_usd') && f.notReported.includes('penalty_count');
    return unreported ? 'The source does not report penalties; none shown' : `No penalties in the last 5 years${olderNote(f.penalties.olderDate)}`;
  }
  const count = plural(f.penalties.count, 'penalty', 'penalties');
  if (f.penaltyUsd === 0) return `${count} in the last 5 years, amount not reported`;
  return `${usd(f.penaltyUsd)} in penalties in the last 5 years (${count})`;
}
