import type { IndexRow } from '../../src/index/index-row';
import type { FacilityRow } from '../../src/index/model';

/** A test row as ingest's producer hands it to the writers; detail, evidence and completeness as `over` gives them. */
export function indexRowOf(r: FacilityRow, over: Partial<IndexRow> = {}): IndexRow {
  return {
    registry_id: r.registry_id, fac_name: r.fac_name, fac_street: r.fac_street, fac_city: r.fac_city, fac_state: r.fac_state, fac_zip: r.fac_zip,
    lat: r.lat, lng: r.lng, loc_accuracy_m: r.loc_accuracy_m ?? null, loc_method: r.loc_method ?? '', fac_naics: r.fac_naics, overall_score: r.overall_score, active_enforcement: r.active_enforcement ? 1 : 0,
    baseline: r.baseline, violation_frequency: r.violation_frequency, penalty_severity: r.penalty_severity, recency: r.recency,
    repeat_offender: r.repeat_offender, score_hash: r.score_hash, score_inputs_json: '{}', detail: '', evidence_json: '', completeness: 0, site_facts: 0,
    ...over,
  };
}
