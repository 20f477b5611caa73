import type { Database } from 'bun:sqlite';
import type { ScoreChange } from './model';

/** What the rule reads of a history entry. */
export type ChangeEntry = { as_of: string; score_version: string; change: string; overall_score: number | null };

/** A facility's entries for the rule, newest first: the columns, and the read of one or many facilities. */
export const CHANGE_ENTRY_COLUMNS = 'r.as_of, r.score_version, h.change, h.overall_score';
export const CHANGE_ENTRIES_FROM = 'FROM history h JOIN release r ON r.seq = h.seq';

/**
 * `score_change`: the facility's most recent change of overall score under `currentVersion` (the
 * index's score method), from its entries newest first: the score and as-of date of the entry before
 * that change, and why it changed. Within one method the change is the facility's own ('data'); the
 * entry that first scored it by the current method compares with the other method's score: 'method'
 * when the record was the same ('rescored'), 'data_and_method' when it changed too. The walk stops
 * there: changes under an earlier method are not compared with this one. Null when no such change.
 *
 * Read as a second keyed statement beside the row, and only on an index with history rows: written
 * as SQL joined into the row's statement (correlated subqueries) it cost several times this read and
 * walk, most of that even over an empty history table.
 */
export function scoreChangeOf(entries: readonly ChangeEntry[], currentVersion: string): ScoreChange {
  for (let i = 0; i + 1 < entries.length; i++) {
    const e = entries[i]!;
    const before = entries[i + 1]!;
    if ((e.change !== 'changed' && e.change !== 'rescored') || e.score_version !== currentVersion) return null;
    const sameMethod = before.score_version === currentVersion;
    if (before.overall_score !== null && e.overall_score !== null && e.overall_score !== before.overall_score) {
      return { previous_score: before.overall_score, previous_as_of: before.as_of, reason: e.change === 'rescored' ? 'method' : sameMethod ? 'data' : 'data_and_method' };
    }
    if (!sameMethod) return null;
  }
  return null;
}

/** Whether the index holds any history row; without one (a first release) no facility has a score change. */
export function hasHistoryRows(db: Database): boolean {
  return db.query('SELECT 1 FROM history LIMIT 1').get() !== null;
}

/** The keyed read of one facility's entries for the rule, or null on an index without history rows. */
export function changeEntriesStatement(db: Database) {
  return hasHistoryRows(db)
    ? db.prepare<ChangeEntry, [string]>(`SELECT ${CHANGE_ENTRY_COLUMNS} ${CHANGE_ENTRIES_FROM} WHERE h.registry_id = ? ORDER BY h.seq DESC`)
    : null;
}

/** The read of many facilities' entries (IDs as one JSON array), or null on an index without history rows. */
export function manyChangeEntriesStatement(db: Database) {
  return hasHistoryRows(db)
    ? db.prepare<ChangeEntry & { registry_id: string }, [string]>(
        `SELECT h.registry_id, ${CHANGE_ENTRY_COLUMNS} ${CHANGE_ENTRIES_FROM} WHERE h.registry_id IN (SELECT value FROM json_each(?)) ORDER BY h.registry_id, h.seq DESC`,
      )
    : null;
}

/** Many facilities' score changes from the many-entries read; a facility without rows is absent (null). */
export function scoreChangesOf(rows: Iterable<ChangeEntry & { registry_id: string }>, currentVersion: string): Map<string, ScoreChange> {
  const byId = new Map<string, ChangeEntry[]>();
  for (const r of rows) {
    let list = byId.get(r.registry_id);
    if (!list) byId.set(r.registry_id, (list = []));
    list.push(r);
  }
  const out = new Map<string, ScoreChange>();
  for (const [id, entries] of byId) out.set(id, scoreChangeOf(entries, currentVersion));
  return out;
}
