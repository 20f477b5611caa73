import { t, type Static } from '../shared/typebox';
import { ScoreInputs } from '../scoring/model';

/** One facility as the index stores it: identity, location and its computed score. */
export const FacilityRow = t.Object({
  registry_id: t.String(),
  fac_name: t.String(),
  fac_street: t.String(),
  fac_city: t.String(),
  fac_state: t.String(),
  fac_zip: t.String(),
  lat: t.Number(),
  lng: t.Number(),
  fac_naics: t.String(),
  overall_score: t.Integer(),
  active_enforcement: t.Boolean(),
  baseline: t.Integer(),
  violation_frequency: t.Integer(),
  penalty_severity: t.Integer(),
  recency: t.Integer(),
  repeat_offender: t.Integer(),
  score_hash: t.String(),
  /** The inputs the score was computed from, kept so reports can say what drove each component. */
  score_inputs: ScoreInputs,
});
export type FacilityRow = Static<typeof FacilityRow>;

/** A row without its score inputs (lookups, portfolios, areas). */
export const FacilitySummary = t.Omit(FacilityRow, ['score_inputs']);
export type FacilitySummary = Static<typeof FacilitySummary>;

/** Spec 2.4's four fields of a facility: a portfolio result row, and an area item less the distance. */
export const FacilityBrief = t.Pick(FacilityRow, ['registry_id', 'fac_name', 'overall_score', 'active_enforcement']);
export type FacilityBrief = Static<typeof FacilityBrief>;

/** What the index file says about itself (table index_meta), shown by /status and --version. */
export const IndexInfo = t.Object({
  dataset_name: t.String(),
  as_of: t.String({ description: 'Date the data describes (YYYY-MM-DD); scores are relative to it, never the wall clock' }),
  facility_count: t.Integer(),
  score_version: t.String(),
  fictitious: t.Boolean({ description: 'True when the data is an invented sample, not EPA data' }),
  built_at: t.String(),
  sources: t.Array(t.Object({ name: t.String(), sha256: t.String() })),
  row_counts: t.Record(t.String(), t.Integer(), { description: 'Rows by ingest outcome' }),
});
export type IndexInfo = Static<typeof IndexInfo>;
