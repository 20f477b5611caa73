/**
 * Every tunable number of score method fcs-3.0, in one place so an analyst can read the whole
 * method here and in docs/scoring.md. Changing any value here changes scores: bump SCORE_VERSION.
 */

/** Days per average month: ages are measured in days between ISO dates, reported in months. */
export const DAYS_PER_MONTH = 365.25 / 12;

/**
 * ECHO's windows: the compliance history covers 12 quarters (CWA's own history 13), enforcement and
 * penalties 5 years. An event dated before the 5-year window is not a 5-year event: it costs nothing.
 */
export const HISTORY_QUARTERS = 12;
export const CWA_HISTORY_QUARTERS = 13;
export const ENFORCEMENT_WINDOW_MONTHS = 60;

/**
 * CWA_3_YR_QNCR_CODES, one code a quarter: the ICIS-NPDES noncompliance resolution codes that mean
 * "resolved pending" (an enforcement response or compliance schedule is in place; `1`/`A` are
 * unresolved, the others resolved). A facility in SNC only under the Clean Water Act whose latest
 * quarter carries one of these is addressed even when the counts show no formal action.
 */
export const QNCR_RESOLVED_PENDING_CODES: readonly string[] = ['2', 'B'];

/** violation_frequency: each quarter in violation costs this much; a significant one costs it twice. */
export const POINTS_PER_VIOLATION_QUARTER = 1.25;
export const EXTRA_POINTS_PER_SIGNIFICANT_QUARTER = 1.25;
/**
 * violation_frequency, fcs-2.0: being in significant non-compliance *now* costs this much more
 * (the quarter EPA's SNC/HPV lists key on), so a current SNC costs 1.25 + 1.25 + 3.75 = 6.25.
 */
export const CURRENT_SIGNIFICANT_POINTS = 3.75;
/** violation_frequency, fcs-2.0: each program beyond the first with a violation in 12 quarters, and each beyond the first in SNC now. */
export const POINTS_PER_EXTRA_PROGRAM_IN_VIOLATION = 1.25;
export const POINTS_PER_EXTRA_PROGRAM_IN_SNC = 2.5;

/** penalty_severity: any penalty costs ANY_PENALTY; each tenfold above PENALTY_FLOOR_USD costs PER_TENFOLD more. */
export const ANY_PENALTY_POINTS = 5;
export const PENALTY_FLOOR_USD = 1_000;
export const POINTS_PER_TENFOLD_PENALTY = 5;

/**
 * recency: each kind of event takes up to `points` off recency when it happened at the as-of date,
 * fading linearly to nothing after `fadeMonths`. Only the heaviest current deduction counts:
 * recency asks "how recently was this facility in trouble", repetition is repeat_offender's job.
 */
export const RECENCY_EVENTS = {
  formal_action: { points: 25, fadeMonths: ENFORCEMENT_WINDOW_MONTHS },
  penalty: { points: 25, fadeMonths: ENFORCEMENT_WINDOW_MONTHS },
  significant_violation: { points: 20, fadeMonths: 36 },
  /** SNC at the as-of date weighs like enforcement taken today, so addressing it never costs recency. */
  current_significant_violation: { points: 25, fadeMonths: 36 },
  violation: { points: 15, fadeMonths: 36 },
  informal_action: { points: 15, fadeMonths: 36 },
} as const;
export type RecencyEventKind = keyof typeof RECENCY_EVENTS;

/**
 * Neutral rule for undated events (since fcs-2.0): an event known to exist in the window (count or
 * amount > 0) without a date in it costs no recency (fcs-1.0 placed it 30 months back, an invented
 * date); it still costs penalty_severity and repeat_offender in full. Without a quarterly history, n
 * violation quarters of 12 are placed as far back as the count allows (12 - n quarters).
 */
export const UNDATED_EVENT_RECENCY_POINTS = 0;

/** repeat_offender: the first formal action (or penalty) costs FIRST, each further one EACH_FURTHER. */
export const FIRST_FORMAL_ACTION_POINTS = 3;
export const FURTHER_FORMAL_ACTION_POINTS = 4;
export const POINTS_PER_INFORMAL_ACTION = 1;
export const INFORMAL_ACTION_CAP_POINTS = 5;
/**
 * repeat_offender: in SNC now and not addressed, i.e. no formal action (or federal case) in the 5-year
 * window and no CWA "resolved pending" code (EPA's "SNC without an enforcement response"). It is more
 * than the first formal action costs (FIRST_FORMAL_ACTION_POINTS) and as much as any further one, so
 * addressing an SNC never lowers a score, whatever the action's age.
 */
export const UNADDRESSED_SNC_POINTS = 4;

/** A component's points once `lost` is taken off its `max`: whole points, never below 0 or above `max`. */
export function pointsLeft(max: number, lost: number): number {
  return Math.round(Math.min(max, Math.max(0, max - lost)));
}
