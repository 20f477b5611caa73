import type { ScoreFacts } from './facts';
import { plural } from './format';
import { MAX_POINTS } from './model';
import {
  FIRST_FORMAL_ACTION_POINTS,
  FURTHER_FORMAL_ACTION_POINTS,
  INFORMAL_ACTION_CAP_POINTS,
  pointsLeft,
  POINTS_PER_INFORMAL_ACTION,
} from './rules';

/**
 * Formal actions in 5 years. ECHO assesses a penalty through a formal action, so penalties and
 * formal actions are two views of the same cases: the larger count is taken, never their sum.
 */
export function formalCases(f: ScoreFacts): number {
  return Math.max(f.formalActions, f.penaltyCount);
}

/**
 * 0-15: the first formal action costs 3 (one case is not yet a pattern), each further one 4, so
 * four cases in 5 years leave 0; informal actions (warning letters, notices) cost 1 each, at most 5.
 */
export function repeatOffenderPoints(f: ScoreFacts): number {
  const cases = formalCases(f);
  const formal = cases === 0 ? 0 : FIRST_FORMAL_ACTION_POINTS + FURTHER_FORMAL_ACTION_POINTS * (cases - 1);
  const informal = Math.min(INFORMAL_ACTION_CAP_POINTS, POINTS_PER_INFORMAL_ACTION * f.informalActions);
  return pointsLeft(MAX_POINTS.repeat_offender, formal + informal);
}

export function explainRepeatOffender(f: ScoreFacts): string {
  const cases = formalCases(f);
  if (cases === 0 && f.informalActions === 0) return 'No enforcement actions in the last 5 years';
  const formal =
    f.penaltyCount > f.formalActions
      ? `${plural(f.penaltyCount, 'penalty', 'penalties')} (each counted as a formal case; ${plural(f.formalActions, 'formal action')} reported)`
      : plural(f.formalActions, 'formal enforcement action');
  return `${formal} and ${plural(f.informalActions, 'informal action')} in the last 5 years`;
}
