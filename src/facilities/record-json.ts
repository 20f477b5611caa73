import type { ScoreChange } from '../history/model';
import type { Meta } from '../http/envelope';
import type { FacilitySummary } from '../index/model';
import { MAX_POINTS } from '../scoring/model';

/**
 * The lookup's 200 body (`FacilityResponse`) written as JSON text, so it never goes through Elysia's
 * response normaliser (which validated the union-typed fields of every Starter+ lookup: ~0.1 of a
 * request). Keys in schema order and nothing beyond the schema, byte for byte what the normaliser
 * gave (test/facilities/record-json.test.ts compares them for every facility of the sample and tier).
 */

/** `programs`, `peers` and `explanation` as JSON text: full (Starter+) or the redacted form. */
export type Score2Json = { programs: string; peers: string; explanation: string };

const str = JSON.stringify;
// every number here comes from the index (finite); JSON writes a non-finite one as null
const num = (n: number) => (Number.isFinite(n) ? `${n}` : 'null');

/** Spec 2.3 full components of a row, as JSON text. */
export function componentsJson(row: FacilitySummary): string {
  return (
    `{"baseline":${num(row.baseline)},"violation_frequency":{"score":${num(row.violation_frequency)},"max_points":${MAX_POINTS.violation_frequency}}` +
    `,"penalty_severity":{"score":${num(row.penalty_severity)},"max_points":${MAX_POINTS.penalty_severity}}` +
    `,"recency":{"score":${num(row.recency)},"max_points":${MAX_POINTS.recency}}` +
    `,"repeat_offender":{"score":${num(row.repeat_offender)},"max_points":${MAX_POINTS.repeat_offender}},"overall":${num(row.overall_score)}}`
  );
}

/** The points each explained component lost (explanation-codec.ts EXPLAINED order), from the stored row. */
export function pointsLost(row: FacilitySummary): number[] {
  return [
    Math.max(0, MAX_POINTS.violation_frequency - row.violation_frequency),
    Math.max(0, MAX_POINTS.penalty_severity - row.penalty_severity),
    Math.max(0, MAX_POINTS.recency - row.recency),
    Math.max(0, MAX_POINTS.repeat_offender - row.repeat_offender),
  ];
}

/** `{data: FacilityRecord, meta}` as JSON text; `components` and `score2` are already JSON (full or redacted). */
export function facilityBodyJson(row: FacilitySummary, components: string, scoreChange: ScoreChange, score2: Score2Json, meta: Meta): string {
  return (
    `{"data":{"registry_id":${str(row.registry_id)},"fac_name":${str(row.fac_name)},"fac_street":${str(row.fac_street)}` +
    `,"fac_city":${str(row.fac_city)},"fac_state":${str(row.fac_state)},"fac_zip":${str(row.fac_zip)}` +
    `,"location":{"lat":${num(row.lat)},"lng":${num(row.lng)}},"fac_naics":${str(row.fac_naics)},"overall_score":${num(row.overall_score)}` +
    `,"active_enforcement":${row.active_enforcement ? 'true' : 'false'},"score_components":${components}` +
    `,"score_change":${scoreChange === null ? 'null' : `{"previous_score":${num(scoreChange.previous_score)},"previous_as_of":${str(scoreChange.previous_as_of)}}`}` +
    `,"programs":${score2.programs},"peers":${score2.peers},"explanation":${score2.explanation}}` +
    `,"meta":{"request_id":${str(meta.request_id)},"timestamp":${str(meta.timestamp)},"response_time_ms":${num(meta.response_time_ms)}}}`
  );
}
