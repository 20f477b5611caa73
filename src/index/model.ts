import { t, type Static } from '../shared/typebox';
import { ScoreInputs } from '../scoring/model';
import { DataSufficient } from '../scoring/completeness';
import { Evidence } from './evidence';

/** One facility as the index stores it: identity, location and its computed score. */
export const FacilityRow = t.Object({
  registry_id: t.String(),
  fac_name: t.String(),
  fac_street: t.String(),
  fac_city: t.String(),
  fac_state: t.String(),
  fac_zip: t.String(),
  /** Null (both) for a facility without usable coordinates. */
  lat: t.Union([t.Number(), t.Null()]),
  lng: t.Union([t.Number(), t.Null()]),
  /** How well lat/lng place it: FAC_ACCURACY_METERS and FAC_COLLECTION_METHOD (src/index/location-quality.ts); null or absent: not stated. */
  loc_accuracy_m: t.Optional(t.Union([t.Number(), t.Null()])),
  loc_method: t.Optional(t.Union([t.String(), t.Null()])),
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
  /** The ECHO fields shown beside the score (tests may leave it out: nothing stored). */
  evidence: t.Optional(Evidence),
});
export type FacilityRow = Static<typeof FacilityRow>;

/** A WGS84 point as the index stores it; null for a facility without usable coordinates. */
export type Location = { lat: number; lng: number } | null;

/** A row without its score inputs (lookups, portfolios, areas). */
export const FacilitySummary = t.Omit(FacilityRow, ['score_inputs', 'evidence']);
export type FacilitySummary = Static<typeof FacilitySummary>;

/** The first fields of a portfolio result row, and whether the data is enough to judge (site_facts: ./site-facts.ts). */
export const FacilityBrief = t.Composite([t.Pick(FacilityRow, ['registry_id', 'fac_name', 'overall_score', 'active_enforcement']), t.Object({ data_sufficient: DataSufficient })]);
export type FacilityBrief = Static<typeof FacilityBrief>;

/** What the index file says about itself (table index_meta), shown by /status and --version. */
export const IndexInfo = t.Object({
  dataset_name: t.String(),
  as_of: t.String({ description: 'Date the data describes (YYYY-MM-DD); scores are relative to it, never the wall clock' }),
  facility_count: t.Integer(),
  facilities_without_location: t.Integer({ description: 'Facilities indexed without usable coordinates: found by ID and search, not by area' }),
  score_version: t.String(),
  fictitious: t.Boolean({ description: 'True when the data is an invented sample, not EPA data' }),
  built_at: t.String(),
  sources: t.Array(t.Object({ name: t.String(), sha256: t.String() })),
  row_counts: t.Record(t.String(), t.Integer(), { description: 'Rows by ingest outcome' }),
});
export type IndexInfo = Static<typeof IndexInfo>;
