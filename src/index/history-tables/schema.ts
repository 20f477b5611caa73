/**
 * The release list and score history an index carries (docs/ingest.md, "Weekly releases"). Written by
 * ingest, read-only when serving; the shape is the contract between releases/history and watchlists
 * (src/index/history-tables/release-changes.ts reads it with plain SQL).
 *
 * Facilities of the first release get no rows of their own: a facility without rows has been present,
 * unchanged, since the first release. Its 'added' row at that first release is written only when it
 * first changes or is removed (a baseline, so the row before every change is always in the table).
 * Facilities that arrive later always get an 'added' row at their release.
 */
export const HISTORY_DDL = `
-- every release this index carries, oldest first; the highest seq is the index itself
CREATE TABLE release (
  seq INTEGER PRIMARY KEY,
  as_of TEXT NOT NULL,
  score_version TEXT NOT NULL,
  dataset_name TEXT NOT NULL,
  facility_count INTEGER NOT NULL
);
-- one row per facility per release in which its score, a component, its enforcement flag or its presence changed
CREATE TABLE history (
  registry_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  change TEXT NOT NULL,
  overall_score INTEGER,
  violation_frequency INTEGER, penalty_severity INTEGER, recency INTEGER, repeat_offender INTEGER,
  active_enforcement INTEGER,
  PRIMARY KEY (registry_id, seq)
) WITHOUT ROWID;
CREATE INDEX history_by_seq ON history(seq, registry_id);
`;

/** What a history row says happened to the facility in that release. 'rescored': only the score method changed. */
export const CHANGE_KINDS = ['added', 'changed', 'removed', 'rescored'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
