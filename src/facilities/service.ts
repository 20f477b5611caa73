import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilityRow, FacilitySummary } from '../index/model';
import { MAX_POINTS } from '../scoring/model';
import type { ScoreChange } from '../history/model';
import type { FacilityRecord, RedactedComponents, ScoreComponents } from './model';

export const REDACTED_MESSAGE = 'Score components are available on the Starter plan or above';

export function redactedComponents(): RedactedComponents {
  return { redacted: true, message: REDACTED_MESSAGE };
}

export function componentsOf(row: FacilitySummary): ScoreComponents {
  return {
    baseline: row.baseline,
    violation_frequency: { score: row.violation_frequency, max_points: MAX_POINTS.violation_frequency },
    penalty_severity: { score: row.penalty_severity, max_points: MAX_POINTS.penalty_severity },
    recency: { score: row.recency, max_points: MAX_POINTS.recency },
    repeat_offender: { score: row.repeat_offender, max_points: MAX_POINTS.repeat_offender },
    overall: row.overall_score,
  };
}

/** Spec 2.2 record of an index row, with components redacted where the tier says so; `scoreChange` from the index's history. */
export function toFacilityRecord(row: FacilitySummary, tier: Tier, scoreChange: ScoreChange): FacilityRecord {
  return {
    registry_id: row.registry_id,
    fac_name: row.fac_name,
    fac_street: row.fac_street,
    fac_city: row.fac_city,
    fac_state: row.fac_state,
    fac_zip: row.fac_zip,
    location: { lat: row.lat, lng: row.lng },
    fac_naics: row.fac_naics,
    overall_score: row.overall_score,
    active_enforcement: row.active_enforcement,
    score_components: TIER_RULES[tier].fullComponents ? componentsOf(row) : redactedComponents(),
    score_change: scoreChange,
  };
}

function notInIndex(registryId: string): AppError {
  return new AppError('NOT_FOUND', `No facility with registry ID ${registryId} is in the index`);
}

/** The record a lookup returns, or 404 NOT_FOUND. */
export function findFacility(index: FacilityIndex, registryId: string): FacilitySummary {
  const row = index.getSummary(registryId);
  if (!row) throw notInIndex(registryId);
  return row;
}

/** The full row, score inputs included (reports explain each component from them), or the same 404. */
export function findFacilityRow(index: FacilityIndex, registryId: string): FacilityRow {
  const row = index.get(registryId);
  if (!row) throw notInIndex(registryId);
  return row;
}
