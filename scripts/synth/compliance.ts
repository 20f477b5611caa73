import type { Rng } from './rng';

/**
 * An invented facility's compliance record, with the proportions the sample aims at
 * (documented in docs/ingest.md): ~0.7% in significant violation, ~7-8% with a violation identified,
 * ~1% with a penalty in 5 years (log-normal amounts, median ~$6k, plus a Pareto tail into the millions).
 * Dates are days before the as-of date; the history string always agrees with qtrs_with_nc. As in
 * EPA's file, counts cover 5 years while the `DATE_LAST_*` columns hold the latest event ever: some
 * facilities with no event in the window carry an older one (`old*`, 5-15 years back, count 0).
 */
export type Compliance = {
  active: boolean;
  status: '' | 'No Violation Identified' | 'Violation Identified' | 'Significant Violation';
  snc: boolean;
  qtrsWithNc: number;
  history: string;
  inspections: number;
  daysLastInspection: number | null;
  informal: number;
  daysLastInformal: number | null;
  formal: number;
  daysLastFormal: number | null;
  penaltyCount: number;
  totalPenalties: number;
  lastPenalty: number;
  daysLastPenalty: number | null;
  /** The latest event on record when it is older than the 5-year window (its count in the window is 0). */
  daysOldFormal: number | null;
  daysOldInformal: number | null;
  daysOldPenalty: number | null;
  oldPenalty: number;
  /** Zero counts written as `0` (most rows) or left blank: EPA's file has both. */
  zeroAsBlank: boolean;
};

const FIVE_YEARS = 1825;
/** Days back of an event older than the 5-year window: 5 to 15 years. */
const olderDays = (rng: Rng) => rng.int(FIVE_YEARS + 30, 15 * 365);

/** Quarters with violations, most recent last: violators' latest quarter is in violation. */
function historyFor(rng: Rng, qtrs: number, snc: boolean, currentViolation: boolean): string {
  const h = Array<string>(12).fill('_');
  let placed = 0;
  if (currentViolation && qtrs > 0) {
    h[11] = snc ? 'S' : 'V';
    placed = 1;
  }
  // earlier quarters, newest first (a resolved violation never sits in the latest quarter);
  // SNC facilities' violations are recent and contiguous, others scattered; forced once slots run short
  for (let i = 10; placed < qtrs && i >= 0; i--) {
    if (snc || rng.chance(qtrs / 12 + 0.25) || i + 1 <= qtrs - placed) {
      h[i] = snc && rng.chance(0.7) ? 'S' : 'V';
      placed++;
    }
  }
  if (rng.chance(0.03)) for (let k = rng.int(1, 2); k > 0; k--) {
    const i = rng.int(0, 11);
    if (h[i] === '_') h[i] = 'U';
  }
  return h.join('');
}

function recentDays(rng: Rng, within: number): number {
  return rng.int(1, within);
}

/** A penalty amount: log-normal body (median ~$6k), 3% drawn from a Pareto tail ($250k up to ~$50M). */
function penaltyAmount(rng: Rng): number {
  if (rng.chance(0.03)) return Math.round(Math.min(5e7, 250_000 / Math.pow(1 - rng.next(), 1 / 1.1)));
  return Math.max(100, Math.round(Math.exp(Math.log(6000) + 1.5 * rng.normal())));
}

/**
 * `rng` draws what the sample always drew (so its facilities stay those the docs and tests name);
 * `extra`, a stream of its own, draws what was added later: older events and how zeros are written.
 */
export function makeCompliance(rng: Rng, extra: Rng): Compliance {
  const snc = rng.chance(0.007);
  const active = snc || rng.chance(0.72);
  let status: Compliance['status'];
  if (snc) status = 'Significant Violation';
  else if (rng.chance(active ? 0.1 : 0.02)) status = 'Violation Identified';
  else status = !active && rng.chance(0.1) ? '' : 'No Violation Identified';
  const violating = status === 'Violation Identified' || snc;

  let qtrsWithNc = 0;
  if (snc) qtrsWithNc = Math.min(12, 3 + rng.geometric(0.25));
  else if (violating) qtrsWithNc = Math.min(12, 1 + rng.geometric(0.35));
  else if (status !== '' && rng.chance(0.06)) qtrsWithNc = Math.min(4, 1 + rng.geometric(0.5));
  const history = status === '' ? '' : historyFor(rng, qtrsWithNc, snc, violating);

  let inspections = 0;
  if (rng.chance(active ? 0.6 : 0.15) || violating) {
    inspections = rng.chance(0.02) ? rng.int(10, 60) : 1 + rng.geometric(0.45);
  }
  const daysLastInspection = inspections > 0 ? recentDays(rng, violating ? 730 : FIVE_YEARS) : null;

  const informal = rng.chance(violating ? 0.55 : 0.06) ? 1 + rng.geometric(0.5) : 0;
  const daysLastInformal = informal > 0 ? recentDays(rng, violating ? 900 : FIVE_YEARS) : null;

  const formal = rng.chance(snc ? 0.65 : violating ? 0.15 : 0.012) ? 1 + rng.geometric(0.6) : 0;
  const daysLastFormal = formal > 0 ? recentDays(rng, snc ? 540 : FIVE_YEARS) : null;

  let penaltyCount = 0, totalPenalties = 0, lastPenalty = 0, daysLastPenalty: number | null = null;
  if (formal > 0 && rng.chance(snc ? 0.55 : violating ? 0.4 : 0.35)) {
    penaltyCount = Math.min(formal, 1 + rng.geometric(0.6));
    lastPenalty = penaltyAmount(rng);
    totalPenalties = lastPenalty;
    for (let i = 1; i < penaltyCount; i++) totalPenalties += penaltyAmount(rng);
    daysLastPenalty = Math.min(FIVE_YEARS, daysLastFormal! + rng.int(0, 45));
  }

  // older events, outside the window: the latest ever, with a 5-year count of 0
  const daysOldFormal = formal === 0 && extra.chance(0.04) ? olderDays(extra) : null;
  const daysOldInformal = informal === 0 && extra.chance(0.05) ? olderDays(extra) : null;
  let daysOldPenalty: number | null = null, oldPenalty = 0;
  if (penaltyCount === 0 && (daysOldFormal !== null ? extra.chance(0.5) : extra.chance(0.005))) {
    daysOldPenalty = daysOldFormal ?? olderDays(extra);
    oldPenalty = penaltyAmount(extra);
  }

  return {
    active, status, snc, qtrsWithNc, history, inspections, daysLastInspection, informal, daysLastInformal,
    formal, daysLastFormal, penaltyCount, totalPenalties, lastPenalty, daysLastPenalty,
    daysOldFormal, daysOldInformal, daysOldPenalty, oldPenalty, zeroAsBlank: extra.chance(0.3),
  };
}
