import { explainActiveEnforcement } from './active-enforcement';
import { factsOf, type ScoreFacts } from './facts';
import { MAX_POINTS, type ExplanationLine, type ScoreExplanation, type ScoreInputs } from './model';
import { explainPenaltySeverity } from './penalty-severity';
import { explainRecency } from './recency';
import { explainRepeatOffender } from './repeat-offender';
import { explainViolationFrequency } from './violation-frequency';

/**
 * One plain-English line per component saying which facts drove it, from the same sanitised facts
 * the score uses (so the words never disagree with the points). Pure; same as-of rules as scoreFacility.
 */
export function explainComponents(inputs: ScoreInputs, asOf: string): ScoreExplanation {
  return explainFacts(factsOf(inputs, asOf));
}

/** explainComponents of facts already derived (ingest derives them once for the score and the words). */
export function explainFacts(f: ScoreFacts): ScoreExplanation {
  return {
    violation_frequency: explainViolationFrequency(f),
    penalty_severity: explainPenaltySeverity(f),
    recency: explainRecency(f),
    repeat_offender: explainRepeatOffender(f),
    active_enforcement: explainActiveEnforcement(f),
  };
}

/** The sentences of the components the API's `explanation` lists (every one but active_enforcement). */
export type ExplainedComponents = Pick<ScoreExplanation, keyof typeof MAX_POINTS>;

/** Points of each component, as stored in the index. */
export type ComponentPoints = Record<keyof typeof MAX_POINTS, number>;

/**
 * The API's `explanation`: one line per component that lost points, with the points it lost and the
 * same sentence the PDF prints (a component at its maximum has nothing to explain, so no line).
 * Points come from the stored row (the index is the source of truth for scores).
 */
export function explanationLines(points: ComponentPoints, why: ExplainedComponents): ExplanationLine[] {
  const out: ExplanationLine[] = [];
  for (const component of Object.keys(MAX_POINTS) as (keyof typeof MAX_POINTS)[]) {
    const lost = Math.max(0, MAX_POINTS[component] - points[component]);
    if (lost > 0) out.push({ component, points_lost: lost, reason: why[component] });
  }
  return out;
}
