import type { ScoreFacts } from './facts';
import { plural, programList } from './format';
import { MAX_POINTS } from './model';
import {
  CURRENT_SIGNIFICANT_POINTS,
  EFFLUENT_CAP_POINTS,
  EFFLUENT_POINTS,
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

/** Points lost to effluent exceedances: the first costs EFFLUENT_POINTS, each doubling as much again, at most the cap. */
export function effluentLost(exceedances: number): number {
  if (!(exceedances > 0)) return 0;
  return Math.min(EFFLUENT_CAP_POINTS, EFFLUENT_POINTS * (1 + Math.log2(exceedances)));
}

/**
 * 0-15: 15 minus 1.25 per quarter of the last 12 in violation, 1.25 more per significant one, 3.75
 * more when significant now, and 1.25 / 2.5 per program beyond the first in violation / in SNC now
 * (a facility in SNC under two programs is worse than one under one), and up to 3.75 for effluent
 * limit exceedances under the Clean Water Act (a discharge over its limit is worse than paperwork).
 */
export function violationFrequencyPoints(f: ScoreFacts): number {
  const lost =
    f.quartersInViolation * POINTS_PER_VIOLATION_QUARTER +
    f.significantQuarters * EXTRA_POINTS_PER_SIGNIFICANT_QUARTER +
    (f.currentStatus === 'significant' ? CURRENT_SIGNIFICANT_POINTS : 0) +
    breadthLost(f) +
    effluentLost(f.effluentExceedances);
  return pointsLeft(MAX_POINTS.violation_frequency, lost);
}

/** "; 2 quarters have no determined status" when the history marks some `U` (unknown, not clean). */
function unknownNote(f: ScoreFacts): string {
  if (f.unknownQuarters === 0) return '';
  return `; ${f.unknownQuarters === 1 ? '1 quarter has' : `${f.unknownQuarters} quarters have`} no determined status`;
}

export function explainViolationFrequency(f: ScoreFacts): string {
  const effluent = f.effluentExceedances > 0 ? `; ${plural(f.effluentExceedances, 'effluent limit exceedance')} under the Clean Water Act in 13 quarters` : '';
  return `${frequencyPhrase(f)}${effluent}`;
}

function frequencyPhrase(f: ScoreFacts): string {
  if (f.quartersInViolation === 0) {
    if (f.history === '' && f.notReported.includes('qtrs_with_nc')) return 'The source does not report quarters in violation; none shown';
    if (f.unknownQuarters > 0) {
      const known = Math.max(0, HISTORY_QUARTERS - f.unknownQuarters);
      return `No violation in the ${known} of the last ${HISTORY_QUARTERS} quarters with a known status${unknownNote(f)}`;
    }
    return `No quarter in violation in the last ${HISTORY_QUARTERS} quarters (3 years)`;
  }
  const significant = f.significantQuarters > 0 ? `, ${f.significantQuarters} of them significant` : '';
  const now = f.currentStatus === 'significant' ? '; in significant violation now' : '';
  const source = !f.quartersFromCountOnly
    ? ''
    : f.history === ''
      ? ' (from the quarter counts; the file has no quarter-by-quarter history)'
      : ' (a quarter count reports more quarters than the quarterly history shows)';
  const programs =
    f.programsInViolation.length > 1
      ? `; violations under ${programList(f.programsInViolation)}${f.programsSignificant.length > 0 ? `, significant under ${programList(f.programsSignificant)}` : ''}`
      : '';
  return `${f.quartersInViolation} of the last ${HISTORY_QUARTERS} quarters in violation${significant}${now}${source}${programs}${unknownNote(f)}`;
}
