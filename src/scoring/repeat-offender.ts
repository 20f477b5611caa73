import type { ScoreFacts } from './facts';
import { plural } from './format';
import { MAX_POINTS } from './model';
import {
  FIRST_FORMAL_ACTION_POINTS,
  FURTHER_FORMAL_ACTION_POINTS,
  INFORMAL_ACTION_CAP_POINTS,
  OPEN_FORMAL_ACTION_MONTHS,
  pointsLeft,
  POINTS_PER_INFORMAL_ACTION,
  UNADDRESSED_SNC_POINTS,
} from './rules';

/**
 * Formal actions in 5 years. ECHO assesses a penalty through a formal action, so penalties and
 * formal actions are two views of the same cases: the larger count is taken, never their sum.
 */
export function formalCases(f: ScoreFacts): number {
  return Math.max(f.formalActions, f.penaltyCount);
}

/** In SNC now and no dated formal action in the last 12 months: EPA's "SNC without timely and appropriate enforcement". */
export function isUnaddressedSnc(f: ScoreFacts): boolean {
  if (f.currentStatus !== 'significant') return false;
  const formal = f.lastFormalAction;
  return !(formal !== null && formal.monthsAgo !== null && formal.monthsAgo <= OPEN_FORMAL_ACTION_MONTHS);
}

/**
 * 0-15: the first formal action costs 3 (one case is not yet a pattern), each further one 4, so
 * four cases in 5 years leave 0; informal actions (warning letters, notices) cost 1 each, at most 5;
 * an SNC left without timely formal enforcement costs 4, as much as one more formal action could.
 */
export function repeatOffenderPoints(f: ScoreFacts): number {
  const cases = formalCases(f);
  const formal = cases === 0 ? 0 : FIRST_FORMAL_ACTION_POINTS + FURTHER_FORMAL_ACTION_POINTS * (cases - 1);
  const informal = Math.min(INFORMAL_ACTION_CAP_POINTS, POINTS_PER_INFORMAL_ACTION * f.informalActions);
  const unaddressed = isUnaddressedSnc(f) ? UNADDRESSED_SNC_POINTS : 0;
  return pointsLeft(MAX_POINTS.repeat_offender, formal + informal + unaddressed);
}

export function explainRepeatOffender(f: ScoreFacts): string {
  const cases = formalCases(f);
  const unaddressed = isUnaddressedSnc(f) ? `; in significant non-compliance with no formal action dated in the last ${OPEN_FORMAL_ACTION_MONTHS} months` : '';
  const informalUnknown = f.informalActions === 0 && f.notReported.includes('informal_action_count');
  const informal = informalUnknown ? 'informal actions not reported' : plural(f.informalActions, 'informal action');
  if (cases === 0 && f.informalActions === 0) {
    const base = informalUnknown ? 'No formal enforcement actions in the last 5 years (informal actions not reported)' : 'No enforcement actions in the last 5 years';
    return `${base}${unaddressed}`;
  }
  const formal =
    f.penaltyCount > f.formalActions
      ? `${plural(f.penaltyCount, 'penalty', 'penalties')} (each counted as a formal case; ${plural(f.formalActions, 'formal action')} reported)`
      : plural(f.formalActions, 'formal enforcement action');
  return `${formal} and ${informal} in the last 5 years${unaddressed}`;
}
