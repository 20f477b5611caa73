import { t, type Static } from '../shared/typebox';
import { ChangeKind } from '../index/history-tables/model';

/** One entry of GET /api/v1/facility/{registry_id}/history. */
export const HistoryItem = t.Object({
  as_of: t.String({ description: 'As-of date of the release this entry comes from', examples: ['2026-11-07'] }),
  score_method: t.String({ description: 'The facility-score method of that release (as `meta.dataset.score_method` names the current one)' }),
  change: ChangeKind,
  overall_score: t.Union([t.Integer({ minimum: 0, maximum: 100 }), t.Null()], { description: 'Null when removed' }),
  components: t.Union(
    [
      t.Object({
        violation_frequency: t.Integer({ minimum: 0 }),
        penalty_severity: t.Integer({ minimum: 0 }),
        recency: t.Integer({ minimum: 0 }),
        repeat_offender: t.Integer({ minimum: 0 }),
      }),
      t.Null(),
    ],
    { description: 'Component points (max_points as in score_components); null when removed' },
  ),
  active_enforcement: t.Union([t.Boolean(), t.Null()], { description: 'Null when removed' }),
  score_delta: t.Union([t.Integer(), t.Null()], {
    description: "overall_score minus the entry before's; null for the first entry and around a removal",
  }),
});
export type HistoryItem = Static<typeof HistoryItem>;

export const FacilityHistory = t.Object({
  registry_id: t.String({ examples: ['990000914553'] }),
  in_latest_release: t.Boolean({ description: 'False when the facility has been removed from the data' }),
  entries: t.Array(HistoryItem, {
    description: 'Newest first; one per release in which the score, a component, the enforcement flag or presence changed',
  }),
});
export type FacilityHistory = Static<typeof FacilityHistory>;
