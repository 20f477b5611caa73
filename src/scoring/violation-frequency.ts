import type { ScoreFacts } from './facts';
import { MAX_POINTS } from './model';
import { EXTRA_POINTS_PER_SIGNIFICANT_QUARTER, HISTORY_QUARTERS, POINTS_PER_VIOLATION_QUARTER, pointsLeft } from './rules';

/**
 * 0-15: 15 minus 1.25 per quarter of the last 12 in violation and 1.25 more per significant one,
 * so 12 quarters of plain violation, or 6 of significant violation, leave 0.
 */
export function violationFrequencyPoints(f: ScoreFacts): number {
  const lost = f.quartersInViolation * POINTS_PER_VIOLATION_QUARTER + f.significantQuarters * EXTRA_POINTS_PER_SIGNIFICANT_QUARTER;
  return pointsLeft(MAX_POINTS.violation_frequency, lost);
}

export function explainViolationFrequency(f: ScoreFacts): string {
  if (f.quartersInViolation === 0) return `No quarter in violation in the last ${HISTORY_QUARTERS} quarters (3 years)`;
  const significant = f.significantQuarters > 0 ? `, ${f.significantQuarters} significant` : '';
  const source = !f.quartersFromCountOnly
    ? ''
    : f.history === ''
      ? ' (count from FAC_QTRS_WITH_NC; no quarterly history in the data)'
      : ' (FAC_QTRS_WITH_NC reports more quarters than the quarterly history shows)';
  return `${f.quartersInViolation} of the last ${HISTORY_QUARTERS} quarters in violation${significant}${source}`;
}
