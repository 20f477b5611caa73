import type { ReleaseChange } from '../index/history-tables/release-changes';
import type { ChangeItem, EventType, Rule } from './model';

/**
 * The event a change makes under a rule, or null when the rule ignores it. Additions are never
 * events (a watched ID that appears has no "before"). Under "any change" the most telling type wins:
 * removed, then enforcement started, else score changed (which also covers a component change or an
 * enforcement that ended: the payload carries both flags).
 */
export function eventTypeOf(change: ReleaseChange, rule: Rule | null): EventType | null {
  if (change.kind === 'added') return null;
  // a new score method is not a change of the facility: reported only to a rule that asks
  if (change.reason === 'method' && !(rule !== null && 'include_method_changes' in rule && rule.include_method_changes === true)) return null;
  const removed = change.kind === 'removed';
  const started = !removed && change.active_enforcement === true && change.previous_enforcement !== true;
  switch (rule?.type ?? 'any_change') {
    case 'facility_removed':
      return removed ? 'facility.removed' : null;
    case 'enforcement_started':
      return started ? 'facility.enforcement_started' : null;
    case 'score_dropped': {
      const n = (rule as { min_points: number }).min_points;
      const dropped = !removed && change.previous_score !== null && change.overall_score !== null && change.previous_score - change.overall_score >= n;
      return dropped ? 'facility.score_changed' : null;
    }
    default:
      return removed ? 'facility.removed' : started ? 'facility.enforcement_started' : 'facility.score_changed';
  }
}

/** The change as an event's `data` / a `/changes` item; null when the rule ignores it. */
export function matchChange(change: ReleaseChange, rule: Rule | null): ChangeItem | null {
  const type = eventTypeOf(change, rule);
  if (!type) return null;
  const { kind: _kind, ...rest } = change;
  return { type, ...rest };
}
