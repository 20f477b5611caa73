import type { ScoreFacts } from './facts';
import { plural } from './format';
import { MAX_POINTS } from './model';
import { olderNote } from './penalty-severity';
import {
  FIRST_FORMAL_ACTION_POINTS,
  FURTHER_FORMAL_ACTION_POINTS,
  INFORMAL_ACTION_CAP_POINTS,
  pointsLeft,
  POINTS_PER_INFORMAL_ACTION,
  UNADDRESSED_SNC_POINTS,
} from './rules';

/**
 * Formal cases in 5 years. ECHO assesses a penalty through a formal action, so penalties and
 * formal actions are two views of the same cases: the larger count is taken, never their sum. A CWA
 * "resolved pending" code shows an enforcement response in place: at least one case.
 */
export function formalCases(f: ScoreFacts): number {
  return Math.max(f.formalActions, f.penalties.count, f.sncResolvedPending ? 1 : 0);
}

/**
 * In SNC now and not addressed the way EPA means it: no formal action (or federal case) in the 5-year
 * window, whatever its age within it, and no CWA "resolved pending" code for the programs in SNC.
 */
export function isUnaddressedSnc(f: ScoreFacts): boolean {
  return f.currentStatus === 'significant' && f.formalActions === 0 && !f.sncResolvedPending;
}

/**
 * 0-15: the first formal action costs 3 (one case is not yet a pattern), each further one 4, so
 * four cases in 5 years leave 0; informal actions (warning letters, notices) cost 1 each, at most 5;
 * an SNC with no enforcement response costs 4, more than the first formal action that addresses it.
 */
export function repeatOffenderPoints(f: ScoreFacts): number {
  const cases = formalCases(f);
  const formal = cases === 0 ? 0 : FIRST_FORMAL_ACTION_POINTS + FURTHER_FORMAL_ACTION_POINTS * (cases - 1);
  const informal = Math.min(INFORMAL_ACTION_CAP_POINTS, POINTS_PER_INFORMAL_ACTION * f.informal.count);
  const unaddressed = isUnaddressedSnc(f) ? UNADDRESSED_SNC_POINTS : 0;
  return pointsLeft(MAX_POINTS.repeat_offender, formal + informal + unaddressed);
}

/** What the formal cases are: formal actions, federal cases, or penalties when those outnumber both. */
function casesPhrase(f: ScoreFacts): string {
  if (f.formalActions === 0 && f.penalties.count === 0) {
    return f.sncResolvedPending ? 'An enforcement response reported by the Clean Water Act noncompliance report (counted as 1 case)' : 'No formal enforcement actions';
  }
  if (f.penalties.count > f.formalActions) {
    return `${plural(f.penalties.count, 'penalty', 'penalties')} (each counted as a separate case; ${plural(f.formalActions, 'formal action')} reported)`;
  }
  if (f.federal.count > f.formal.count) return plural(f.federal.count, 'federal enforcement case');
  return plural(f.formal.count, 'formal enforcement action');
}

export function explainRepeatOffender(f: ScoreFacts): string {
  const cases = formalCases(f);
  const informalUnknown = f.informal.count === 0 && f.notReported.includes('informal_action_count');
  const snc = isUnaddressedSnc(f)
    ? '; in significant violation now, with no formal enforcement action to address it'
    : f.currentStatus === 'significant' && f.formalActions === 0
      ? '; in significant violation now, which that report marks as being resolved'
      : '';
  if (cases === 0 && f.informal.count === 0) {
    if (isUnaddressedSnc(f)) return `In significant violation now, with no enforcement action in the last 5 years to address it${informalUnknown ? ' (informal actions not reported)' : ''}`;
    const base = informalUnknown ? 'No formal enforcement actions in the last 5 years (informal actions not reported)' : 'No enforcement actions in the last 5 years';
    return `${base}${olderNote(f.formal.olderDate ?? f.federal.olderDate, 'the latest formal action on record')}${snc}`;
  }
  if (informalUnknown) return `${casesPhrase(f)} in the last 5 years (informal actions not reported)${snc}`;
  return `${casesPhrase(f)} and ${plural(f.informal.count, 'informal action')} in the last 5 years${snc}`;
}
