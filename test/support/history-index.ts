import { Database } from 'bun:sqlite';
import { IndexWriter } from '../../src/index/index-writer';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import type { FacilityRow } from '../../src/index/model';
import { FIXED_NOW, memoryIndex } from '../helpers';

/**
 * The two tables of the history contract (src/index/history-tables/schema.ts), written directly in
 * place of the ones ingest wrote: small exact release stories for tests of rules and delivery
 * (test/watchlists/webhooks/ingest-releases.test.ts goes through real `ingest --previous` releases).
 */
const DDL = `
DROP TABLE IF EXISTS history;
DROP TABLE IF EXISTS release;
CREATE TABLE release (seq INTEGER PRIMARY KEY, as_of TEXT NOT NULL, score_version TEXT NOT NULL, dataset_name TEXT NOT NULL, facility_count INTEGER NOT NULL);
CREATE TABLE history (
  registry_id TEXT NOT NULL, seq INTEGER NOT NULL, change TEXT NOT NULL, overall_score INTEGER,
  violation_frequency INTEGER, penalty_severity INTEGER, recency INTEGER, repeat_offender INTEGER, active_enforcement INTEGER,
  PRIMARY KEY (registry_id, seq)
) WITHOUT ROWID;
CREATE INDEX history_by_seq ON history(seq, registry_id);`;

export type TestRelease = { seq: number; as_of: string; score_version?: string };
export type TestHistoryRow = { registry_id: string; seq: number; change: 'added' | 'changed' | 'removed' | 'rescored'; score?: number | null; enforcement?: boolean | null };

export function addHistory(db: Database, releases: TestRelease[], rows: TestHistoryRow[]): void {
  db.exec(DDL);
  const rel = db.prepare('INSERT INTO release VALUES (?, ?, ?, ?, ?)');
  for (const r of releases) rel.run(r.seq, r.as_of, r.score_version ?? 'fcs-1.0', 'test releases', 0);
  const h = db.prepare('INSERT INTO history VALUES (?, ?, ?, ?, 10, 20, 20, 10, ?)');
  for (const r of rows) {
    const removed = r.change === 'removed';
    h.run(r.registry_id, r.seq, r.change, removed ? null : (r.score ?? 80), removed ? null : r.enforcement === undefined ? 0 : r.enforcement ? 1 : 0);
  }
}

/** An in-memory index whose facility table holds `rows` (the newest release) and the given history. */
export function historyIndex(rows: FacilityRow[], releases: TestRelease[], history: TestHistoryRow[]): FacilityIndex {
  const built = memoryIndex(rows, { as_of: releases[releases.length - 1]!.as_of });
  addHistory(connectionOf(built), releases, history);
  // Opened again: the index reads its release list when it is opened.
  return new FacilityIndex(connectionOf(built));
}

/** The same as an index file (for serve processes). */
export function historyIndexFile(path: string, rows: FacilityRow[], releases: TestRelease[], history: TestHistoryRow[]): void {
  const w = new IndexWriter(path);
  for (const r of rows) w.add(r);
  w.finish({ dataset_name: 'test releases', as_of: releases[releases.length - 1]!.as_of, score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  const db = new Database(path, { strict: true });
  addHistory(db, releases, history);
  db.close();
}
