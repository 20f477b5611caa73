import type { Database } from 'bun:sqlite';
import type { FacilitySummary, IndexInfo } from '../model';
import type { HistoryEntry, Release } from './model';
import type { ChangeKind } from './schema';

type RawEntry = Omit<HistoryEntry, 'active_enforcement' | 'change'> & { change: ChangeKind; active_enforcement: number | null };

const ENTRY_COLUMNS = `h.seq, r.as_of, r.score_version, h.change, h.overall_score, h.violation_frequency, h.penalty_severity, h.recency,
  h.repeat_offender, h.active_enforcement`;

function toEntry(r: RawEntry): HistoryEntry {
  return { ...r, active_enforcement: r.active_enforcement === null ? null : r.active_enforcement === 1 };
}

/**
 * Reads the release list and history of an index (src/index/history/schema.ts), hiding how it is stored:
 * an index from before releases existed reads as one release, and a facility without rows reads as
 * added in the first release with its current values.
 */
export class HistoryReader {
  private readonly list: readonly Release[];
  private readonly entriesOf;
  private readonly entriesOfMany;

  constructor(db: Database, info: IndexInfo) {
    const hasTables = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'history'").get() !== null;
    // a first release has no rows: then lookups and portfolios skip the history statement altogether
    const hasRows = hasTables && db.query('SELECT 1 FROM history LIMIT 1').get() !== null;
    this.list = hasTables
      ? (db.query('SELECT seq, as_of, score_version, dataset_name, facility_count FROM release ORDER BY seq').all() as Release[])
      : [{ seq: 1, as_of: info.as_of, score_version: info.score_version, dataset_name: info.dataset_name, facility_count: info.facility_count }];
    const from = `FROM history h JOIN release r ON r.seq = h.seq`;
    this.entriesOf = hasRows ? db.prepare<RawEntry, [string]>(`SELECT ${ENTRY_COLUMNS} ${from} WHERE h.registry_id = ? ORDER BY h.seq DESC`) : null;
    // IDs as one JSON array through json_each, never spliced into SQL
    this.entriesOfMany = hasRows
      ? db.prepare<RawEntry & { registry_id: string }, [string]>(
          `SELECT h.registry_id, ${ENTRY_COLUMNS} ${from} WHERE h.registry_id IN (SELECT value FROM json_each(?)) ORDER BY h.registry_id, h.seq DESC`,
        )
      : null;
  }

  /** Every release, oldest first; the last one is the index's own data. */
  releases(): readonly Release[] {
    return this.list;
  }

  /**
   * The facility's entries, newest first. `current` is its row in this index (null when it is not in
   * the latest release): a facility without rows was added in the first release as it is now.
   * Empty when the facility was never in any release.
   */
  historyOf(registryId: string, current: FacilitySummary | null): HistoryEntry[] {
    const rows = this.storedEntries(registryId);
    return rows.length > 0 ? rows : current ? [this.baselineOf(current)] : [];
  }

  /** The facility's stored rows, newest first (none for a facility unchanged since the first release). */
  storedEntries(registryId: string): HistoryEntry[] {
    return this.entriesOf?.all(registryId).map(toEntry) ?? [];
  }

  /** The stored rows of many facilities, newest first, in one statement; a facility without rows is absent. */
  storedEntriesOf(ids: readonly string[]): Map<string, HistoryEntry[]> {
    const out = new Map<string, HistoryEntry[]>();
    if (!this.entriesOfMany || ids.length === 0) return out;
    for (const r of this.entriesOfMany.all(JSON.stringify(ids))) {
      const { registry_id, ...entry } = r;
      let list = out.get(registry_id);
      if (!list) out.set(registry_id, (list = []));
      list.push(toEntry(entry));
    }
    return out;
  }

  private baselineOf(row: FacilitySummary): HistoryEntry {
    const first = this.list[0]!;
    return {
      seq: first.seq,
      as_of: first.as_of,
      score_version: first.score_version,
      change: 'added',
      overall_score: row.overall_score,
      violation_frequency: row.violation_frequency,
      penalty_severity: row.penalty_severity,
      recency: row.recency,
      repeat_offender: row.repeat_offender,
      active_enforcement: row.active_enforcement,
    };
  }
}
