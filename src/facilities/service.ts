import { TIER_RULES, type Tier } from '../tiers';
import { AppError } from '../errors';
import { locationOf, type FacilityDetail, type FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import type { StoredAnswer } from '../index/stored-lookup';
import { MAX_POINTS } from '../scoring/model';
import type { FacilityRecord, LookupExtras, RedactedComponents, RedactedDetail } from './model';
import { dfrUrlOf, lookupEvidenceOf } from './evidence';

export const REDACTED_MESSAGE = 'Score components are available on the Starter plan or above';

export function redactedComponents(): RedactedComponents {
  return { redacted: true, message: REDACTED_MESSAGE };
}

export const REDACTED_DETAIL_MESSAGE = 'Program records, industry peers, explanations and evidence are available on the Starter plan or above';

export function redactedDetail(): RedactedDetail {
  return { redacted: true, message: REDACTED_DETAIL_MESSAGE };
}

/** Free tier's programs / peers / explanation / evidence (when asked for): each the same redacted object. */
export function redactedExtras(): LookupExtras {
  return { programs: redactedDetail(), peers: redactedDetail(), explanation: redactedDetail(), evidence: redactedDetail() };
}

/**
 * The facility record of a stored answer (src/index/stored-lookup.ts), with components (and programs,
 * peers, explanation) redacted where the tier says so.
 */
export function toFacilityRecord({ row, scoreChange, extras, beside }: StoredAnswer, tier: Tier, withEvidence = false): FacilityRecord {
  const full = TIER_RULES[tier].fullComponents;
  const extra = full && extras ? extras : null;
  const redacted = extra ? null : redactedDetail();
  // one literal with every field named: spreading the extras into it was measurably slower on a Starter+ lookup
  const record: FacilityRecord = {
    registry_id: row.registry_id,
    fac_name: row.fac_name,
    fac_street: row.fac_street,
    fac_city: row.fac_city,
    fac_state: row.fac_state,
    fac_zip: row.fac_zip,
    location: locationOf(row),
    fac_naics: row.fac_naics,
    overall_score: row.overall_score,
    active_enforcement: row.active_enforcement,
    active_enforcement_basis: row.active_enforcement ? (beside?.basis ?? null) : null,
    score_components: full
      ? {
          baseline: row.baseline,
          violation_frequency: { score: row.violation_frequency, max_points: MAX_POINTS.violation_frequency },
          penalty_severity: { score: row.penalty_severity, max_points: MAX_POINTS.penalty_severity },
          recency: { score: row.recency, max_points: MAX_POINTS.recency },
          repeat_offender: { score: row.repeat_offender, max_points: MAX_POINTS.repeat_offender },
          overall: row.overall_score,
        }
      : redactedComponents(),
    score_change: scoreChange,
    programs: extra ? extra.programs : redacted!,
    peers: extra ? extra.peers : redacted!,
    explanation: extra ? extra.explanation : redacted!,
    dfr_url: dfrUrlOf(row.registry_id),
    // every tier: which inputs and events the source lacks, never a component's points
    data_completeness: beside?.completeness ?? null,
  };
  // asked for (`include=evidence`): Starter+ gets it, Free the redacted object
  if (withEvidence) record.evidence = extra && beside?.evidence ? lookupEvidenceOf(beside.evidence, row.registry_id) : (redacted ?? redactedDetail());
  return record;
}

function notInIndex(registryId: string): AppError {
  return new AppError('NOT_FOUND', `No facility with registry ID ${registryId} is in the index`);
}

/** The slim row of a facility (reports, before they render), or 404 NOT_FOUND. */
export function findFacility(index: FacilityIndex, registryId: string): FacilitySummary {
  const row = index.getSummary(registryId);
  if (!row) throw notInIndex(registryId);
  return row;
}

/**
 * What a lookup returns for `tier`: the index reads the facility's stored answer in one place (the
 * row, its score change and, for Starter+, the programs, peers and explanation ingest computed), and
 * this shapes it for the tier. 404 NOT_FOUND when the facility is not in the index.
 */
export function lookupFacility(index: FacilityIndex, registryId: string, tier: Tier, withEvidence = false): FacilityRecord {
  return lookupFacilityScored(index, registryId, tier, withEvidence).record;
}

/** lookupFacility with the facility's score hash (src/scoring/score.ts), which an answer's ETag is made of. */
export function lookupFacilityScored(index: FacilityIndex, registryId: string, tier: Tier, withEvidence = false): { record: FacilityRecord; scoreHash: string } {
  const answer = index.stored.answer(registryId, TIER_RULES[tier].fullComponents, withEvidence) ?? missing(registryId);
  return { record: toFacilityRecord(answer, tier, withEvidence), scoreHash: answer.row.score_hash };
}

function missing(registryId: string): never {
  throw notInIndex(registryId);
}

/** The full row, score inputs and industry peers included (reports explain each component from them), or the same 404. */
export function findFacilityRow(index: FacilityIndex, registryId: string): FacilityDetail {
  const row = index.getDetail(registryId);
  if (!row) throw notInIndex(registryId);
  return row;
}
