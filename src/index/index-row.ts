import type { DeclaredValues } from './declared-columns';

/**
 * A scored facility as the index's writers take it: the facility table, the `.area` collector and
 * the `.search` build each read the fields they need by name. Ingest's producer makes them (a
 * plain object of strings and numbers, so it crosses between threads as it is). The fields a site
 * report reads beyond these are declared in ./declared-columns.ts (a row that leaves one out has
 * it not stated); a new facility field is read from the exporter (src/ingest/row-mapper.ts) and
 * declared there.
 */
export type IndexRow = Partial<DeclaredValues> & {
  registry_id: string;
  fac_name: string;
  fac_street: string;
  fac_city: string;
  fac_state: string;
  fac_zip: string;
  lat: number | null;
  lng: number | null;
  fac_naics: string;
  overall_score: number;
  active_enforcement: 0 | 1;
  baseline: number;
  violation_frequency: number;
  penalty_severity: number;
  recency: number;
  repeat_offender: number;
  score_hash: string;
  score_inputs_json: string;
  /** The programs and the explanation, as facility.detail stores them (./facility-detail.ts), or a shared detail's id; '' when the writer fills it in later (stored as NULL until then). */
  detail: string | number;
  /** facility.evidence (./evidence.ts storedEvidenceJson), '' when there is nothing to store (stored as NULL). */
  evidence_json: string;
  /** The id of the row's data completeness in completeness_kind (./facility-detail.ts DetailEncoder.completeness). */
  completeness: number;
  /** What a site report's categories read (./site-facts.ts siteFactBitsOf). */
  site_facts: number;
};
