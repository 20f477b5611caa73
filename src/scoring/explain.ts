import { explainActiveEnforcement } from './active-enforcement';
import { factsOf } from './facts';
import type { ScoreExplanation, ScoreInputs } from './model';
import { explainPenaltySeverity } from './penalty-severity';
import { explainRecency } from './recency';
import { explainRepeatOffender } from './repeat-offender';
import { explainViolationFrequency } from './violation-frequency';

/**
 * One plain-English line per component saying which facts drove it, from the same sanitised facts
 * the score uses (so the words never disagree with the points). Pure; same as-of rules as scoreFacility.
 */
export function explainComponents(inputs: ScoreInputs, asOf: string): ScoreExplanation {
  const f = factsOf(inputs, asOf);
  return {
    violation_frequency: explainViolationFrequency(f),
    penalty_severity: explainPenaltySeverity(f),
    recency: explainRecency(f),
    repeat_offender: explainRepeatOffender(f),
    active_enforcement: explainActiveEnforcement(f),
  };
}
