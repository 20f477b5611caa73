import { t, type Static } from '../../shared/typebox';
import { CHANGE_KINDS } from './schema';

/** One release an index carries (table `release`); the highest seq is the index's own data. */
export const Release = t.Object({
  seq: t.Integer({ minimum: 1 }),
  as_of: t.String({ description: 'Date the release describes (YYYY-MM-DD)' }),
  score_version: t.String({ description: 'Score method the release was scored with' }),
  dataset_name: t.String(),
  facility_count: t.Integer({ minimum: 0 }),
});
export type Release = Static<typeof Release>;

export const ChangeKind = t.UnionEnum(CHANGE_KINDS, {
  description:
    "What happened since the facility's entry before: 'added' (first appearance, or back after a removal), 'changed' " +
    "(score, a component or the enforcement flag changed), 'removed' (no longer in the data), 'rescored' (only the score " +
    'method changed between releases: not a change of the facility)',
});

const NullableInt = t.Union([t.Integer(), t.Null()]);

/** One history entry as FacilityIndex.historyOf returns it: a history row with its release's date and method. */
export const HistoryEntry = t.Object({
  seq: t.Integer({ minimum: 1 }),
  as_of: t.String(),
  score_version: t.String(),
  change: ChangeKind,
  overall_score: NullableInt,
  violation_frequency: NullableInt,
  penalty_severity: NullableInt,
  recency: NullableInt,
  repeat_offender: NullableInt,
  active_enforcement: t.Union([t.Boolean(), t.Null()]),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

/** The facility record's and portfolio item's `score_change` (null when the score has not changed under the current method). */
/** Why a score changed: the facility's data, only the score method (its data the same), or both at once. */
export const ChangeReason = t.Union([t.Literal('data'), t.Literal('method'), t.Literal('data_and_method')], {
  description: "'data': the facility's record changed; 'method': only the score method changed (its record is the same: not a change of the facility); 'data_and_method': both in one release",
});
export type ChangeReason = Static<typeof ChangeReason>;

export const ScoreChange = t.Union(
  [
    t.Object({
      previous_score: t.Integer({ minimum: 0, maximum: 100, description: 'The overall score before its most recent change' }),
      previous_as_of: t.String({ description: 'As-of date of the release that score comes from (its history entry)' }),
      reason: ChangeReason,
    }),
    t.Null(),
  ],
  {
    description:
      'The most recent change of the overall score, or null when it has not changed since the facility appeared. Within one score ' +
      "method a change is the facility's ('data'); the first release scored by a new method shows the change the method made " +
      "('method', or 'data_and_method' when the record changed too); earlier changes under another method are not shown. " +
      'Agrees with GET /api/v1/facility/{registry_id}/history.',
  },
);
export type ScoreChange = Static<typeof ScoreChange>;
