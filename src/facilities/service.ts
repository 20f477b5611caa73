import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import { MAX_POINTS, type ExplanationLine } from '../scoring/model';
import type { ScoreChange } from '../index/history/model';
import type { FacilityDetail } from '../index/facility-index';
import type { LookupRow, StoredLookup } from '../index/stored-lookup';
import { explainComponents, explanationLines } from '../scoring/explain';
import type { FacilityRecord, RedactedComponents, RedactedDetail, Score2Fields, ScoreComponents } from './model';

export const REDACTED_MESSAGE = 'Score components are available on the Starter plan or above';

export function redactedComponents(): RedactedComponents {
  return { redacted: true, message: REDACTED_MESSAGE };
}

export const REDACTED_DETAIL_MESSAGE = 'Program records, industry peers and explanations are available on the Starter plan or above';

export function redactedDetail(): RedactedDetail {
  return { redacted: true, message: REDACTED_DETAIL_MESSAGE };
}

/** Free tier's programs / peers / explanation: each the same redacted object. */
export function redactedScore2(): Score2Fields {
  return { programs: redactedDetail(), peers: redactedDetail(), explanation: redactedDetail() };
}

/**
 * Programs, peers and explanation as index format 7 stores them (src/index/stored-lookup.ts): the
 * same values score2Of derives per request, read from the row's detail (decoded once per distinct
 * text) and its templates. `programs` is shared between responses (frozen).
 */
export function storedScore2(stored: StoredLookup, row: LookupRow & { detail: string }): Score2Fields {
  const d = stored.decoded(row.detail);
  return {
    programs: d.programs,
    peers: stored.peersOf(row.fac_naics, row.overall_score),
    explanation: stored.explanationOf(d, row) as ExplanationLine[],
  };
}

/** Programs, peers and explanation of a full row; the explanation's points are the stored ones. */
export function score2Of(row: FacilityDetail, asOf: string): Score2Fields {
  return {
    programs: row.score_inputs.programs,
    peers: row.peers,
    explanation: explanationLines(row, explainComponents(row.score_inputs, asOf)),
  };
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

/** Spec 2.2 record of an index row, with components (and programs, peers, explanation) redacted where the tier says so; `scoreChange` from the index's history. */
export function toFacilityRecord(row: FacilitySummary, tier: Tier, scoreChange: ScoreChange, score2?: Score2Fields): FacilityRecord {
  const full = TIER_RULES[tier].fullComponents;
  const extra = full && score2 ? score2 : redactedScore2();
  // one literal with every field named: spreading score2 into it cost 0.3-0.5 µs of a Starter+ lookup (in process)
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
    score_components: full ? componentsOf(row) : redactedComponents(),
    score_change: scoreChange,
    programs: extra.programs,
    peers: extra.peers,
    explanation: extra.explanation,
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

/**
 * What a lookup returns for `tier`: Free reads only the slim row (nothing to show beyond it). Starter+
 * on an index of format 7 reads the row with its stored programs and explanation in one statement
 * and fills in the explanation's templates; older formats read the inputs and peers and explain per request.
 */
export function lookupFacility(index: FacilityIndex, registryId: string, tier: Tier): FacilityRecord {
  if (!TIER_RULES[tier].fullComponents) return toFacilityRecord(findFacility(index, registryId), tier, index.scoreChangeOf(registryId));
  const stored = index.stored;
  if (stored) {
    const row = stored.get(registryId);
    if (!row) throw notInIndex(registryId);
    if (row.detail !== null) return toFacilityRecord(row, tier, index.scoreChangeOf(registryId), storedScore2(stored, row as LookupRow & { detail: string }));
  }
  const row = index.getDetail(registryId);
  if (!row) throw notInIndex(registryId);
  return toFacilityRecord(row, tier, index.scoreChangeOf(registryId), score2Of(row, index.info.as_of));
}

/** The full row, score inputs and industry peers included (reports explain each component from them), or the same 404. */
export function findFacilityRow(index: FacilityIndex, registryId: string): FacilityDetail {
  const row = index.getDetail(registryId);
  if (!row) throw notInIndex(registryId);
  return row;
}
