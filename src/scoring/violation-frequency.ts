import type { ScoreFacts } from './facts';
import { MAX_POINTS } from './model';
import {
  CURRENT_SIGNIFICANT_POINTS,
  EXTRA_POINTS_PER_SIGNIFICANT_QUARTER,
  HISTORY_QUARTERS,
  pointsLeft,
  POINTS_PER_EXTRA_PROGRAM_IN_SNC,
  POINTS_PER_EXTRA_PROGRAM_IN_VIOLATION,
  POINTS_PER_VIOLATION_QUARTER,
} from './rules';

/** Points lost to breadth: programs beyond the first in violation, and beyond the first in SNC now. */
function breadthLost(f: ScoreFacts): number {
  const extraInViolation = Math.max(0, f.programsInViolation.length - 1);
  const extraInSnc = Math.max(0, f.programsSignificant.length - 1);
  return extraInViolation * POINTS_PER_EXTRA_PROGRAM_IN_VIOLATION + extraInSnc * POINTS_PER_EXTRA_PROGRAM_IN_SNC;
}

/**
 * 0-15: 15 minus 1.25 per quarter of the last 12 in violation, 1.25 more per significant one, 3.75
 * more when significant now, and 1.25 / 2.5 per program beyond the first in violation / in SNC now
 * (a facility in SNC under two programs is worse than one under one).
 */
export function violationFrequencyPoints(f: ScoreFacts): number {
  const lost =
    f.quartersInViolation * POINTS_PER_VIOLATION_QUARTER +
    f.significantQuarters * EXTRA_POINTS_PER_SIGNIFICANT_QUARTER +
    (f.currentStatus === 'significant' ? CURRENT_SIGNIFICANT_POINTS : 0) +
    breadthLost(f);
  return pointsLeft(MAX_POINTS.violation_frequency, lost);
}

const upper = (names: string[]) => names.map((n) => n.toUpperCase()).join(', ');

export function explainViolationFrequency(f: ScoreFacts): string {
  if (f.quartersInViolation === 0) {
    if (f.history === '' && f.notReported.includes('qtrs_with_nc')) return 'Quarters in violation not reported by the source; no violation shown';
    return `No quarter in violation in the last ${HISTORY_QUARTERS} quarters (3 years)`;
  }
  const significant = f.significantQuarters > 0 ? `, ${f.significantQuarters} significant` : '';
  const now = f.currentStatus === 'significant' ? '; in significant non-compliance now' : '';
  const source = !f.quartersFromCountOnly
    ? ''
    : f.history === ''
      ? ' (count from the quarter-count columns; no quarterly history in the data)'
      : ' (a quarter count reports more quarters than the quarterly history shows)';
  const programs =
    f.programsInViolation.length > 1
      ? `; programs in violation: ${upper(f.programsInViolation)}${f.programsSignificant.length > 0 ? `, in SNC: ${upper(f.programsSignificant)}` : ''}`
      : '';
  return `${f.quartersInViolation} of the last ${HISTORY_QUARTERS} quarters in violation${significant}${now}${source}${programs}`;
}
