import { BASELINE_POINTS, MAX_POINTS, type ScoreInputs, type ScoreResult } from './model';

/** Bumped whenever any formula changes; stored in the index and in every score_hash. */
export const SCORE_VERSION = 'fcs-0.1-placeholder';

// PLACEHOLDER until issue 3 lands the real model: keeps the shape and invariants (bounds, sum).
export function scoreFacility(inputs: ScoreInputs, _asOf: string): ScoreResult {
  const violation_frequency = Math.max(0, MAX_POINTS.violation_frequency - inputs.qtrs_with_nc);
  const penalty_severity = inputs.total_penalties_usd > 0 ? 15 : MAX_POINTS.penalty_severity;
  const recency = inputs.date_last_formal_action ? 10 : MAX_POINTS.recency;
  const repeat_offender = Math.max(0, MAX_POINTS.repeat_offender - inputs.formal_action_count * 3);
  const overall = BASELINE_POINTS + violation_frequency + penalty_severity + recency + repeat_offender;
  return {
    baseline: BASELINE_POINTS,
    violation_frequency,
    penalty_severity,
    recency,
    repeat_offender,
    overall,
    active_enforcement: inputs.significant_violation,
    score_hash: scoreHash(inputs),
  };
}

export function scoreHash(inputs: ScoreInputs): string {
  const h = new Bun.CryptoHasher('sha256');
  h.update(SCORE_VERSION);
  h.update(JSON.stringify(inputs));
  return h.digest('hex').slice(0, 32);
}
