import { sha256Hex } from '../hash';
import { activeEnforcementBasis } from './active-enforcement';
import { explainFacts } from './explain';
import { factsOf, type ScoreFacts } from './facts';
import { BASELINE_POINTS, ScoreInputs, type ScoreExplanation, type ScoreResult } from './model';
import { penaltySeverityPoints } from './penalty-severity';
import { recencyPoints } from './recency';
import { repeatOffenderPoints } from './repeat-offender';
import { violationFrequencyPoints } from './violation-frequency';

/** Bumped whenever any formula or rule (src/scoring/rules.ts) changes; stored in the index and in every score_hash. */
export const SCORE_VERSION = 'fcs-4.0';

/**
 * The facility's score at `asOf` (YYYY-MM-DD, the dataset's date; never the wall clock):
 * baseline 15 + four components, 0-100, higher = better compliance. Pure and deterministic;
 * odd inputs (NaN, negative, future dates, short history) are sanitised, never propagated.
 * Throws RangeError only when `asOf` itself is not a date.
 */
export function scoreFacility(inputs: ScoreInputs, asOf: string): ScoreResult {
  return scoreOfFacts(factsOf(inputs, asOf), scoreHash(inputs, asOf));
}

/**
 * scoreFacility and explainComponents of the same inputs, the facts derived once: ingest stores the
 * explanation (facility.detail) and what the facts say of the data's completeness beside the score,
 * so a lookup does not derive them again. `storedJson`: the inputs as ingest stores them (see
 * scoreHashOfStored), which the score hash is then made from.
 */
export function scoreAndExplain(inputs: ScoreInputs, asOf: string, storedJson?: string): { score: ScoreResult; why: ScoreExplanation; facts: ScoreFacts } {
  const f = factsOf(inputs, asOf);
  const hash = storedJson === undefined ? scoreHash(inputs, asOf) : scoreHashOfStored(inputs, asOf, storedJson);
  return { score: scoreOfFacts(f, hash), why: explainFacts(f), facts: f };
}

function scoreOfFacts(f: ScoreFacts, score_hash: string): ScoreResult {
  const violation_frequency = violationFrequencyPoints(f);
  const penalty_severity = penaltySeverityPoints(f);
  const recency = recencyPoints(f);
  const repeat_offender = repeatOffenderPoints(f);
  const basis = activeEnforcementBasis(f);
  return {
    baseline: BASELINE_POINTS,
    violation_frequency,
    penalty_severity,
    recency,
    repeat_offender,
    overall: BASELINE_POINTS + violation_frequency + penalty_severity + recency + repeat_offender,
    active_enforcement: basis !== null,
    active_enforcement_basis: basis,
    score_hash,
  };
}

// every field the schema declares, in schema order: extra properties on the object never change
// the hash, and key order in the caller's object does not matter
const INPUT_FIELDS = Object.keys(ScoreInputs.properties) as (keyof ScoreInputs)[];

/**
 * 32 hex chars of SHA-256 over the score version, the as-of date and every input field: it changes
 * whenever the score (or anything a report shows from the inputs) could change. The report cache
 * is keyed by it. `asOf` is required because recency and active_enforcement depend on it.
 */
export function scoreHash(inputs: ScoreInputs, asOf: string): string {
  return hashScoreInputs(SCORE_VERSION, inputs, asOf);
}

/** scoreHash for an explicit method version (tests use it to show a version bump changes every hash). */
export function hashScoreInputs(version: string, inputs: ScoreInputs, asOf: string): string {
  const values: unknown[] = [version, asOf];
  for (const k of INPUT_FIELDS) values.push(canonicalValue(inputs[k]));
  // one native JSON.stringify of a flat array: this runs for every row at ingest
  return sha256Hex(JSON.stringify(values)).slice(0, 32);
}

// `programs` is the second-to-last field, `not_reported` the last: what scoreHashOfStored relies on
const COMPOSABLE = INPUT_FIELDS.indexOf('programs') === INPUT_FIELDS.length - 2 && INPUT_FIELDS.at(-1) === 'not_reported';

/**
 * scoreHash of inputs whose values are already written as JSON: `storedJson`, one array of every
 * input field but `programs`, in schema order (what ingest stores: src/index/inputs-codec.ts). The
 * hashed text is that array with the version and as-of date in front and the programs put in their
 * place, so ingest does not write every value out a second time per row. Falls back to scoreHash
 * where the two texts could differ (a non-finite number, which the array writes as null).
 */
export function scoreHashOfStored(inputs: ScoreInputs, asOf: string, storedJson: string): string {
  if (!COMPOSABLE) return scoreHash(inputs, asOf);
  for (const k of INPUT_FIELDS) {
    const v = inputs[k];
    if (typeof v === 'number' && !Number.isFinite(v)) return scoreHash(inputs, asOf);
  }
  const notReported = inputs.not_reported;
  // an exporter file reports every field: '[]' without a stringify call
  const tail = Array.isArray(notReported) && notReported.length === 0 ? ',[]]' : `,${JSON.stringify(canonicalValue(notReported))}]`;
  if (storedJson.charCodeAt(0) !== 91 || !storedJson.endsWith(tail)) return scoreHash(inputs, asOf);
  return sha256Hex(`${hashHead(asOf)}${storedJson.slice(1, storedJson.length - tail.length)},${JSON.stringify(canonicalValue(inputs.programs))}${tail}`).slice(0, 32);
}

/** `[version,asOf,` as the hashed text starts, for the last as-of seen (a build hashes every row at one as-of). */
let headAsOf: string | null = null;
let head = '';
function hashHead(asOf: string): string {
  if (asOf !== headAsOf) {
    head = `[${JSON.stringify(SCORE_VERSION)},${JSON.stringify(asOf)},`;
    headAsOf = asOf;
  }
  return head;
}

// JSON writes NaN, Infinity and null alike, yet they score differently: tag non-finite numbers
function canonicalValue(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return { nonFinite: String(v) };
  return v === undefined ? null : v;
}
