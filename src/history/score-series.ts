import type { HistoryEntry, Release } from '../index/history-tables/model';

/** The facility's overall score in one release (null: not in that release's data). */
export type ScorePoint = { as_of: string; overall_score: number | null };

/**
 * The facility's score in each release, oldest first, from its history entries (newest first) and the
 * index's releases: the value of its latest entry at or before each release. Releases before it first
 * appeared are left out; at most the last `max` releases.
 */
export function scoreSeries(entries: readonly HistoryEntry[], releases: readonly Release[], max = 26): ScorePoint[] {
  const oldestFirst = [...entries].reverse();
  const out: ScorePoint[] = [];
  let k = -1;
  for (const r of releases) {
    while (k + 1 < oldestFirst.length && oldestFirst[k + 1]!.seq <= r.seq) k++;
    if (k >= 0) out.push({ as_of: r.as_of, overall_score: oldestFirst[k]!.overall_score });
  }
  return out.slice(-max);
}
