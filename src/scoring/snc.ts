import type { ScoreFacts } from './facts';

/**
 * In significant non-compliance now (HPV under the Clean Air Act) with no enforcement response dated
 * on or after the first quarter of its current significant run: EPA's enforcement response policies
 * treat an SNC as addressed once a formal action is taken against it, and "SNC without a timely
 * enforcement response" as the case to act on. An action dated before the run began, or undated,
 * does not answer it.
 */
export function isUnansweredSnc(f: ScoreFacts): boolean {
  return f.currentStatus === 'significant' && f.sncAnsweredBy === null;
}
