import { t, type Static } from 'elysia';

/** What the score model reads of a facility: ECHO compliance fields, already parsed and
 * normalised by ingest. Dates are ISO `YYYY-MM-DD` or null when ECHO has none. */
export const ScoreInputs = t.Object({
  /** Quarters of the last 12 with a violation (FAC_QTRS_WITH_NC). */
  qtrs_with_nc: t.Integer({ minimum: 0, maximum: 12 }),
  /** FAC_3YR_COMPLIANCE_HISTORY: 12 chars oldest first (`_` none, `V`, `S` significant, `U` undetermined); '' when absent. */
  history: t.String({ maxLength: 12 }),
  /** FAC_COMPLIANCE_STATUS as published, e.g. 'Significant Violation'. */
  compliance_status: t.String(),
  /** Currently in significant non-compliance (status, FAC_PROGRAMS_WITH_SNC or FAC_SNC_FLG). */
  significant_violation: t.Boolean(),
  inspection_count: t.Integer({ minimum: 0 }),
  informal_action_count: t.Integer({ minimum: 0 }),
  formal_action_count: t.Integer({ minimum: 0 }),
  penalty_count: t.Integer({ minimum: 0 }),
  total_penalties_usd: t.Number({ minimum: 0 }),
  last_penalty_usd: t.Number({ minimum: 0 }),
  date_last_penalty: t.Union([t.String(), t.Null()]),
  date_last_formal_action: t.Union([t.String(), t.Null()]),
  date_last_informal_action: t.Union([t.String(), t.Null()]),
  date_last_inspection: t.Union([t.String(), t.Null()]),
});
export type ScoreInputs = Static<typeof ScoreInputs>;

/** Spec 2.3 component points plus what the index stores alongside them. */
export const ScoreResult = t.Object({
  baseline: t.Integer(),
  violation_frequency: t.Integer({ minimum: 0, maximum: 15 }),
  penalty_severity: t.Integer({ minimum: 0, maximum: 30 }),
  recency: t.Integer({ minimum: 0, maximum: 25 }),
  repeat_offender: t.Integer({ minimum: 0, maximum: 15 }),
  overall: t.Integer({ minimum: 0, maximum: 100 }),
  active_enforcement: t.Boolean(),
  /** Hash of score version + inputs + as-of date: changes whenever the score could. */
  score_hash: t.String(),
});
export type ScoreResult = Static<typeof ScoreResult>;

/** One line per component (and the enforcement flag) saying which facts drove it, for the PDF report. */
export const ScoreExplanation = t.Object({
  violation_frequency: t.String(),
  penalty_severity: t.String(),
  recency: t.String(),
  repeat_offender: t.String(),
  active_enforcement: t.String(),
});
export type ScoreExplanation = Static<typeof ScoreExplanation>;

/** Spec 2.3 max_points, fixed by the spec. */
export const MAX_POINTS = {
  violation_frequency: 15,
  penalty_severity: 30,
  recency: 25,
  repeat_offender: 15,
} as const;
export const BASELINE_POINTS = 15;
