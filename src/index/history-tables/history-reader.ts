import type { Database } from 'bun:sqlite';
import type { FacilitySummary } from '../model';
import type { HistoryEntry, Release, ScoreChange } from './model';
import { changesInReleaseFor, changesOfIds, type ReleaseChange } from './release-changes';
import { changeEntriesStatement, scoreChangeOf } from './score-change';
import type { ChangeKind } from './schema';

type RawEntry = Omit<HistoryEntry, 'active_enforcement' | 'change'> & { change: ChangeKind; active_enforcement: number | null };

const ENTRY_COLUMNS = `h.seq, r.as_of, r.score_version, h.change, h.overall_score, h.violation_frequency, h.penalty_severity, h.recency,
  h.repeat_offender, h.active_enforcement`;

function toEntry(r: RawEntry): HistoryEntry {
  return { ...r, active_enforcement: r.active_enforcement === null ? null : r.active_enforcement === 1 };
}

/**
 * Reads the release list and history of an index (src/index/history-tables/schema.ts), hiding how it is
 * stored: a facility without rows reads as added in the first release with its current values.
 */
export class HistoryReader {
  private readonly list: readonly Release[];
  private readonly entriesOf;
  private readonly changeEntries;

  constructor(
    private readonly db: Database,
    private readonly scoreVersion: string,
  ) {
    this.list = db.query<Release, []>('SELECT seq, as_of, score_version, dataset_name, facility_count FROM release ORDER BY seq').all();
    this.entriesOf = db.prepare<RawEntry, [string]>(`SELECT ${ENTRY_COLUMNS} FROM history h JOIN release r ON r.seq = h.seq WHERE h.registry_id = ? ORDER BY h.seq DESC`);
    this.changeEntries = changeEntriesStatement(db);
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
    const rows = this.entriesOf.all(registryId).map(toEntry);
    return rows.length > 0 ? rows : current ? [this.baselineOf(current)] : [];
  }

  /** The facility's `score_change` (./score-change.ts); null too when it is not in the index. */
  scoreChangeOf(registryId: string): ScoreChange {
    return this.changeEntries ? scoreChangeOf(this.changeEntries.all(registryId), this.scoreVersion) : null;
  }

  /** The changes of release `seq` among `ids` (./release-changes.ts). */
  changesInReleaseFor(seq: number, ids: readonly string[]): ReleaseChange[] {
    return changesInReleaseFor(this.db, seq, ids);
  }

  /** The changes of `ids` in the releases after `afterSeq` up to `uptoSeq`, oldest release first. */
  changesOfIds(ids: readonly string[], afterSeq: number, uptoSeq: number): ReleaseChange[] {
    return changesOfIds(this.db, ids, afterSeq, uptoSeq);
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
