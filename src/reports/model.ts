import { t, type Static } from '../shared/typebox';
import { Peers } from '../index/peers';
import { ScoreInputs } from '../scoring/model';
import { Evidence } from '../index/evidence';
import { DataCompleteness } from '../scoring/completeness';

/** One scored component as the dossier shows it: a bar of `score` out of `max_points` and why. */
export const ReportComponent = t.Object({
  key: t.String(),
  label: t.String(),
  score: t.Integer({ minimum: 0 }),
  max_points: t.Integer({ minimum: 1 }),
  /** One sentence on what drove the points, from the score model (scoring/explain.ts). */
  driver: t.String(),
});
export type ReportComponent = Static<typeof ReportComponent>;

/** Everything printed in a dossier: built from an index row and index info, rendered by document.ts. */
export const ReportView = t.Object({
  registry_id: t.String(),
  fac_name: t.String(),
  address_lines: t.Array(t.String()),
  /** Null: the facility has no usable coordinates. */
  lat: t.Union([t.Number(), t.Null()]),
  lng: t.Union([t.Number(), t.Null()]),
  fac_naics: t.String(),
  overall_score: t.Integer(),
  baseline: t.Integer(),
  components: t.Array(ReportComponent),
  active_enforcement: t.Boolean(),
  /** The score model's one line on why the flag is set or not. */
  enforcement_reason: t.String(),
  inputs: ScoreInputs,
  /** The facility's industry peers, null without a NAICS code. */
  peers: t.Union([Peers, t.Null()]),
  /** The ECHO records beside the score (the Evidence block); null when the index has none for the row. */
  evidence: t.Union([Evidence, t.Null()]),
  data_completeness: t.Union([DataCompleteness, t.Null()]),
  dataset_name: t.String(),
  as_of: t.String(),
  fictitious: t.Boolean(),
  score_version: t.String(),
  sources: t.Array(t.Object({ name: t.String(), sha256: t.String() })),
  /** The overall score in each release the index holds, oldest first (src/history/score-series.ts); null: not in that release. */
  score_history: t.Array(t.Object({ as_of: t.String(), overall_score: t.Union([t.Integer(), t.Null()]) })),
  /** Epoch ms of this render (deps.clock). */
  generated_at: t.Integer(),
  /**
   * What the page calls this document: derived from the cache key (documentIdOf), so every caller
   * served the same cached copy sees the same ID and nothing a caller sent is ever printed.
   */
  document_id: t.String({ pattern: '^[0-9a-f]{16}$' }),
});
export type ReportView = Static<typeof ReportView>;

/** `X-Cache` values: served from disk, rendered and stored, or rendered but not storable. */
export const CacheOutcome = t.Union([t.Literal('HIT'), t.Literal('MISS'), t.Literal('BYPASS')]);
export type CacheOutcome = Static<typeof CacheOutcome>;
