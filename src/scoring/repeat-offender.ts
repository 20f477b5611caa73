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
  UNANSWERED_SNC_POINTS,
  UNANSWERED_SNC_POINTS_PER_QUARTER,
} from './rules';
import { isUnansweredSnc } from './snc';

/**
 * Formal cases in 5 years. ECHO assesses a penalty through a formal action, so penalties and
 * formal actions are two views of the same cases: the larger count is taken, never their sum. A CWA
 * "resolved pending" code shows an enforcement response in place: at least one case.
 */
export function formalCases(f: ScoreFacts): number {
  return Math.max(f.formalActions, f.penalties.count, f.sncResolvedPending ? 1 : 0);
}

/** What leaving the SNC unanswered costs: the base, and more for each further quarter of its run. */
export function unansweredSncLost(f: ScoreFacts): number {
  if (!isUnansweredSnc(f)) return 0;
  return UNANSWERED_SNC_POINTS + UNANSWERED_SNC_POINTS_PER_QUARTER * Math.max(0, f.sncRunQuarters - 1);
}

/**
 * 0-15: the first formal action costs 3 (one case is not yet a pattern), each further one 4, so
 * four cases in 5 years leave 0; informal actions (warning letters, notices) cost 1 each, at most 5;
 * an SNC with no enforcement response dated in its run costs 4 and 1 more per further quarter of the
 * run, at least as much as any formal action that would answer it.
 */
export function repeatOffenderPoints(f: ScoreFacts): number {
  const cases = formalCases(f);
  const formal = cases === 0 ? 0 : FIRST_FORMAL_ACTION_POINTS + FURTHER_FORMAL_ACTION_POINTS * (cases - 1);
  const informal = Math.min(INFORMAL_ACTION_CAP_POINTS, POINTS_PER_INFORMAL_ACTION * f.informal.count);
  return pointsLeft(MAX_POINTS.repeat_offender, formal + informal + unansweredSncLost(f));
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
  const snc = isUnansweredSnc(f)
    ? `; ${unansweredPhrase(f)}`
    : f.sncAnsweredBy === 'qncr' && f.formalActions === 0
      ? '; in significant violation now, which that report marks as being resolved'
      : '';
  if (cases === 0 && f.informal.count === 0) {
    if (isUnansweredSnc(f)) return `${capitalise(unansweredPhrase(f))}${informalUnknown ? ' (informal actions not reported)' : ''}`;
    const base = informalUnknown ? 'No formal enforcement actions in the last 5 years (informal actions not reported)' : 'No enforcement actions in the last 5 years';
    return `${base}${olderNote(f.formal.olderDate ?? f.federal.olderDate, 'the latest formal action on record')}${snc}`;
  }
  if (informalUnknown) return `${casesPhrase(f)} in the last 5 years (informal actions not reported)${snc}`;
  return `${casesPhrase(f)} and ${plural(f.informal.count, 'informal action')} in the last 5 years${snc}`;
}

/** "in significant violation for 3 quarters running, with no enforcement action dated since it began" */
function unansweredPhrase(f: ScoreFacts): string {
  const run = f.sncRunQuarters > 1 ? ` for ${f.sncRunQuarters} quarters running` : ' now';
  const older = f.formal.latest !== null || f.federal.latest !== null ? ' (the latest is older)' : f.formalActions === 1 ? ' (the formal action on record has no date)' : f.formalActions > 1 ? ' (the formal actions on record have no date)' : '';
  return `in significant violation${run}, with no enforcement action dated since it began${older}`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
