/**
 * Every tunable number of score method fcs-4.0, in one place so an analyst can read the whole
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
 * violation_frequency, fcs-4.0: CWA_13QTRS_EFFLNT_EXCEEDANCES (effluent limit exceedances in 13
 * quarters) costs EFFLUENT_POINTS for the first and as much again per doubling, at most
 * EFFLUENT_CAP_POINTS: a discharge over its limit is worse than a late report, and more are worse.
 */
export const EFFLUENT_POINTS = 1.25;
export const EFFLUENT_CAP_POINTS = 3.75;

/**
 * recency: each event takes up to `points` off recency at the as-of date, fading linearly to nothing
 * after `fadeMonths`; only the heaviest counts (repetition is repeat_offender's job). fcs-4.0 sizes
 * enforcement: a formal action, penalty or federal case weighs by its penalty (below), so a $500
 * late-report penalty is not a refinery consent decree; an SNC left unanswered weighs the most.
 */
export const RECENCY_EVENTS = {
  /** Formal action or penalty of no (or unknown) amount; a penalty's weight grows with its size (recencyWeightOfPenalty). */
  formal_action: { points: 10, fadeMonths: ENFORCEMENT_WINDOW_MONTHS },
  penalty: { points: 10, fadeMonths: ENFORCEMENT_WINDOW_MONTHS },
  federal_case: { points: 10, fadeMonths: ENFORCEMENT_WINDOW_MONTHS },
  informal_action: { points: 6, fadeMonths: 36 },
  violation: { points: 15, fadeMonths: 36 },
  significant_violation: { points: 20, fadeMonths: 36 },
  /** SNC now with an enforcement response dated in its run: as an SNC quarter now. */
  answered_significant_violation: { points: 20, fadeMonths: 36 },
  /** SNC now with no enforcement response (EPA's worst case): all of recency. */
  current_significant_violation: { points: 25, fadeMonths: 36 },
} as const;
export type RecencyEventKind = keyof typeof RECENCY_EVENTS;

/**
 * recency, fcs-4.0: a penalty (or a federal case's penalties) of PENALTY_RECENCY_FLOOR_USD or less
 * weighs as a formal action (10); each tenfold above adds PENALTY_RECENCY_PER_TENFOLD, up to 25
 * ($50k 15, $500k 20, $5M or more 25).
 */
export const PENALTY_RECENCY_FLOOR_USD = 5_000;
export const PENALTY_RECENCY_PER_TENFOLD = 5;

/**
 * Neutral rule for undated events (since fcs-2.0): an event known to exist in the window (count or
 * amount > 0) without a date in it costs no recency; it still costs penalty_severity and
 * repeat_offender in full. Without a quarterly history, n violation quarters of 12 are placed as far
 * back as the count allows (12 - n quarters). An undated action never answers an SNC (fcs-4.0): the
 * data cannot show it came after the violation.
 */
export const UNDATED_EVENT_RECENCY_POINTS = 0;

/** repeat_offender: the first formal action (or penalty) costs FIRST, each further one EACH_FURTHER. */
export const FIRST_FORMAL_ACTION_POINTS = 3;
export const FURTHER_FORMAL_ACTION_POINTS = 4;
export const POINTS_PER_INFORMAL_ACTION = 1;
export const INFORMAL_ACTION_CAP_POINTS = 5;
/**
 * repeat_offender, fcs-4.0: an SNC now with no enforcement response dated on or after the first
 * quarter of its current significant run (EPA's "SNC without a timely and appropriate enforcement
 * response") costs UNANSWERED_SNC_POINTS, plus UNANSWERED_SNC_POINTS_PER_QUARTER for each further
 * quarter of the run. The base is as much as any further formal action costs, so answering an SNC
 * never lowers a score; a longer unanswered run always costs more.
 */
export const UNANSWERED_SNC_POINTS = 4;
export const UNANSWERED_SNC_POINTS_PER_QUARTER = 1;
/** penalty_severity, fcs-4.0: an unanswered SNC shows the gravity of the top penalty band (0 of 30 left). */
export const UNANSWERED_SNC_PENALTY_SEVERITY_LOST = 30;

/** active_enforcement, fcs-4.0: a formal action or federal case dated this many months before the as-of date, or less. */
export const RECENT_ACTION_MONTHS = 12;

/** A component's points once `lost` is taken off its `max`: whole points, never below 0 or above `max`. */
export function pointsLeft(max: number, lost: number): number {
  return Math.round(Math.min(max, Math.max(0, max - lost)));
}
