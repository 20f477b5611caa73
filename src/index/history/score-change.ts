import type { HistoryEntry, ScoreChange } from './model';

/**
 * The facility's most recent change of overall score under `currentVersion` (the index's score method),
 * from its entries newest first: the score and as-of date of the entry before that change. Null when
 * the score has not changed since the facility appeared, or since the method changed: a 'rescored'
 * entry, or a change whose entry before was scored by another method, is not the facility's own change.
 */
export function scoreChangeOf(entries: readonly HistoryEntry[], currentVersion: string): ScoreChange {
  for (let i = 0; i + 1 < entries.length; i++) {
    const e = entries[i]!;
    const before = entries[i + 1]!;
    if (e.change !== 'changed' || e.score_version !== currentVersion || before.score_version !== currentVersion) return null;
    if (before.overall_score !== null && e.overall_score !== before.overall_score) {
      return { previous_score: before.overall_score, previous_as_of: before.as_of };
    }
  }
  return null;
}
