import type { TSchema } from '@sinclair/typebox';
import { t, type Static } from '../shared/typebox';

/** `null` in the inputs always means "the source file has no such column" (not reported), never "none". */
const Reported = <T extends TSchema>(schema: T) => t.Union([schema, t.Null()]);
const Count = Reported(t.Integer({ minimum: 0 }));
const Amount = Reported(t.Number({ minimum: 0 }));
/** ISO `YYYY-MM-DD`; null when there is no date (no such event, or no such column: see `not_reported`). */
const DateOrNull = t.Union([t.String(), t.Null()]);

/**
 * One ECHO program's own record (CAA_*, CWA_*, RCRA_*, SDWA_* columns). Every field is null when
 * the source lacks its column (SDWA has no penalty columns; facility-search files only a status).
 */
export const ProgramInputs = t.Object({
  /** <PGM>_COMPLIANCE_STATUS as published. */
  status: Reported(t.String()),
  /** CAA_HPV_FLAG / CWA_SNC_FLAG / RCRA_SNC_FLAG / SDWA_SNC_FLAG, or a status naming significant violation (HPV for CAA). */
  significant: Reported(t.Boolean()),
  /** <PGM>_QTRS_WITH_NC: CWA counts over 13 quarters, the others over 12. */
  qtrs_with_nc: Reported(t.Integer({ minimum: 0, maximum: 13 })),
  formal_actions: Count,
  informal_actions: Count,
  penalties_usd: Amount,
  last_penalty_usd: Amount,
  last_penalty_date: DateOrNull,
  last_formal_action_date: DateOrNull,
  /**
   * The program's quarterly history, oldest first, one character a quarter (`_` `V` `S` `U` as the
   * facility history): CAA_3YR_COMPL_QTRS_HISTORY and RCRA_3YR_COMPL_QTRS_HISTORY hold 12 quarters,
   * CWA_13QTRS_COMPL_HISTORY 13 (the last is the most recent). Null: no such column (SDWA has none).
   */
  history: Reported(t.String({ maxLength: 13 })),
  /** CWA_3_YR_QNCR_CODES as published, upper-cased ('' for an empty cell); CWA only, null elsewhere. */
  qncr_codes: Reported(t.String()),
  /**
   * CWA_13QTRS_EFFLNT_EXCEEDANCES: effluent limit exceedances recorded over the last 13 quarters (more
   * is worse); CWA only, null elsewhere. Optional: a record stored before the column was read has none.
   */
  effluent_exceedances: t.Optional(Reported(t.Integer({ minimum: 0 }))),
});
export type ProgramInputs = Static<typeof ProgramInputs>;

export const PROGRAMS = ['caa', 'cwa', 'rcra', 'sdwa'] as const;
export type Program = (typeof PROGRAMS)[number];

/** A program the facility is not in (or the source says nothing about) is null. */
export const ProgramsInputs = t.Object({
  caa: Reported(ProgramInputs),
  cwa: Reported(ProgramInputs),
  rcra: Reported(ProgramInputs),
  sdwa: Reported(ProgramInputs),
});
export type ProgramsInputs = Static<typeof ProgramsInputs>;

/** What the score model reads of a facility: ECHO compliance fields, already parsed and
 * normalised by ingest. A field whose column the source lacks is null (and named in `not_reported`). */
export const ScoreInputs = t.Object({
  /**
   * Quarters of the last 12 with a violation (FAC_QTRS_WITH_NC). The `*_count` and `total_*` fields
   * cover the last 5 years; `last_penalty_usd` and every `date_last_*` are the most recent event
   * ever, which can be older than 5 years (the model then does not count it).
   */
  qtrs_with_nc: Reported(t.Integer({ minimum: 0, maximum: 12 })),
  /** FAC_3YR_COMPLIANCE_HISTORY: 12 chars oldest first (`_` none, `V`, `S` significant, `U` undetermined). */
  history: Reported(t.String({ maxLength: 12 })),
  /** FAC_COMPLIANCE_STATUS as published, e.g. 'Significant Violation'. */
  compliance_status: Reported(t.String()),
  /** FAC_SNC_FLG is `Y` (seen `N` on every row of a recent national file, so never read alone). */
  snc_flag: Reported(t.Boolean()),
  /** FAC_PROGRAMS_WITH_SNC: how many programs (CAA, CWA, RCRA) the facility is in significant non-compliance under now; `0` for none. */
  programs_in_snc: Count,
  inspection_count: Count,
  informal_action_count: Count,
  formal_action_count: Count,
  penalty_count: Count,
  total_penalties_usd: Amount,
  last_penalty_usd: Amount,
  date_last_penalty: DateOrNull,
  date_last_formal_action: DateOrNull,
  date_last_informal_action: DateOrNull,
  date_last_inspection: DateOrNull,
  /** FEC_NUMBER_OF_CASES, FEC_TOTAL_PENALTIES, FEC_LAST_CASE_DATE: federal enforcement cases (the date is the latest case ever). */
  federal_cases: Count,
  federal_penalties_usd: Amount,
  date_last_federal_case: DateOrNull,
  /** FEC_CASE_IDS: the federal enforcement case numbers listed, each once ([] for an empty cell). */
  federal_case_ids: Reported(t.Array(t.String())),
  /** FAC_ACTIVE_FLAG: `Y` true, `N` false (at least one linked permit or program record is active); null without a Y/N. */
  facility_active: Reported(t.Boolean()),
  programs: ProgramsInputs,
  /** Input fields whose column the source file lacks (e.g. every date in facility-search downloads). */
  not_reported: t.Array(t.String()),
});
export type ScoreInputs = Static<typeof ScoreInputs>;

/**
 * Why active_enforcement is true: `recent_action`, a formal action or federal case dated in the 12
 * months before the as-of date; `snc_answered`, a current significant violation answered by a formal
 * action or federal case dated on or after the first quarter of its current significant run.
 */
export const ActiveEnforcementBasis = t.Union([t.Literal('recent_action'), t.Literal('snc_answered')], {
  description: 'recent_action: a formal enforcement action or federal case in the 12 months before the data date; snc_answered: a current significant violation being addressed by an action dated on or after it began',
});
export type ActiveEnforcementBasis = Static<typeof ActiveEnforcementBasis>;

/** The component points plus what the index stores alongside them. */
export const ScoreResult = t.Object({
  baseline: t.Integer(),
  violation_frequency: t.Integer({ minimum: 0, maximum: 15 }),
  penalty_severity: t.Integer({ minimum: 0, maximum: 30 }),
  recency: t.Integer({ minimum: 0, maximum: 25 }),
  repeat_offender: t.Integer({ minimum: 0, maximum: 15 }),
  overall: t.Integer({ minimum: 0, maximum: 100 }),
  active_enforcement: t.Boolean(),
  /** Which rule made active_enforcement true (null when false): see ActiveEnforcementBasis. */
  active_enforcement_basis: t.Union([ActiveEnforcementBasis, t.Null()]),
  /** Hash of score version + inputs + as-of date: changes whenever the score could. */
  score_hash: t.String(),
});
export type ScoreResult = Static<typeof ScoreResult>;

/** One line per component (and the enforcement flag) saying which facts drove it, for the PDF report and the API. */
export const ScoreExplanation = t.Object({
  violation_frequency: t.String(),
  penalty_severity: t.String(),
  recency: t.String(),
  repeat_offender: t.String(),
  active_enforcement: t.String(),
});
export type ScoreExplanation = Static<typeof ScoreExplanation>;

/** Each component's max_points, fixed by the API's contract (docs/scoring.md). */
export const MAX_POINTS = {
  violation_frequency: 15,
  penalty_severity: 30,
  recency: 25,
  repeat_offender: 15,
} as const;
export const BASELINE_POINTS = 15;

/** One line of the API's `explanation`: the same sentence the PDF prints for a component. */
export const ExplanationLine = t.Object({
  component: t.Union([t.Literal('violation_frequency'), t.Literal('penalty_severity'), t.Literal('recency'), t.Literal('repeat_offender')]),
  points_lost: t.Integer({ minimum: 1 }),
  reason: t.String(),
});
export type ExplanationLine = Static<typeof ExplanationLine>;
