import { Database } from 'bun:sqlite';
import { renameSync, rmSync } from 'node:fs';
import { normalizeAddressKey } from '../demo/address';
import type { FacilityRow, IndexInfo } from './model';
import { INDEX_DDL, INDEX_FORMAT, INDEX_POST_LOAD_DDL } from './schema';

/**
 * Builds an index file atomically: rows go into `<path>.tmp-<pid>`, which is renamed over `path`
 * only by `finish()`. An interrupted build leaves the old index untouched.
 */
export class IndexWriter {
  private readonly db: Database;
  private readonly tmpPath: string;
  private readonly insert;
  private insertNew: ReturnType<Database['prepare']> | undefined;
  private insertEncoded: ReturnType<Database['prepare']> | undefined;
  private count = 0;

  constructor(private readonly path: string) {
    this.tmpPath = path === ':memory:' ? path : `${path}.tmp-${process.pid}`;
    if (this.tmpPath !== ':memory:') rmSync(this.tmpPath, { force: true });
    this.db = new Database(this.tmpPath, { create: true, strict: true });
    // Bulk-load settings: the file is not live until renamed, so durability per row is moot.
    this.db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
    this.db.exec(INDEX_DDL);
    this.db.exec('BEGIN');
    this.insert = this.db.prepare(
      `INSERT OR REPLACE INTO facility VALUES ($registry_id,$fac_name,$fac_street,$fac_city,$fac_state,$fac_zip,$lat,$lng,$fac_naics,
       $overall_score,$active_enforcement,$baseline,$violation_frequency,$penalty_severity,$recency,$repeat_offender,$score_hash,$score_inputs,$address_key)`,
    );
  }

  add(row: FacilityRow): void {
    this.insert.run(this.bind(row));
    this.count++;
  }

  /** Inserts unless the registry ID is already there; false means a duplicate (the first row stays). Used by ingest. */
  addIfNew(row: FacilityRow): boolean {
    this.insertNew ??= this.db.prepare(
      `INSERT INTO facility VALUES ($registry_id,$fac_name,$fac_street,$fac_city,$fac_state,$fac_zip,$lat,$lng,$fac_naics,
       $overall_score,$active_enforcement,$baseline,$violation_frequency,$penalty_severity,$recency,$repeat_offender,$score_hash,$score_inputs,$address_key)
       ON CONFLICT(registry_id) DO NOTHING`,
    );
    const added = this.insertNew.run(this.bind(row)).changes === 1;
    if (added) this.count++;
    return added;
  }

  /**
   * addIfNew for a row already in column order (registry_id ... score_inputs as JSON text), as ingest's
   * producer thread sends it; saves re-building an object per row at national scale.
   */
  addEncodedIfNew(v: readonly (string | number)[]): boolean {
    this.insertEncoded ??= this.db.prepare(
      `INSERT INTO facility VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19) ON CONFLICT(registry_id) DO NOTHING`,
    );
    const added = this.insertEncoded.run(...v, normalizeAddressKey(v[2] as string, v[4] as string)).changes === 1;
    if (added) this.count++;
    return added;
  }

  /** Extra index_meta entries (e.g. ingest_version) written with the build. */
  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO index_meta VALUES (?, ?)').run(key, value);
  }

  private bind(row: FacilityRow) {
    return {
      ...row,
      active_enforcement: row.active_enforcement ? 1 : 0,
      score_inputs: JSON.stringify(row.score_inputs),
      address_key: normalizeAddressKey(row.fac_street, row.fac_state),
    };
  }

  get rowsWritten(): number {
    return this.count;
  }

  /** Writes metadata, builds secondary indexes and atomically replaces `path`. */
  finish(info: Omit<IndexInfo, 'facility_count'>): IndexInfo {
    const facility_count = (this.db.query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
    const full: IndexInfo = { ...info, facility_count };
    const put = this.db.prepare('INSERT OR REPLACE INTO index_meta VALUES (?, ?)');
    put.run('format', INDEX_FORMAT);
    put.run('info', JSON.stringify(full));
    this.db.exec('COMMIT');
    this.db.exec(INDEX_POST_LOAD_DDL);
    this.db.exec('ANALYZE; PRAGMA journal_mode = DELETE;');
    if (this.tmpPath === ':memory:') return full;
    this.db.close();
    renameSync(this.tmpPath, this.path);
    return full;
  }

  /** Abandons the build; the previous index (if any) stays in place. */
  abort(): void {
    try {
      this.db.close();
    } finally {
      if (this.tmpPath !== ':memory:') rmSync(this.tmpPath, { force: true });
    }
  }

  /** For tests building an in-memory index: the live database once finished. */
  get database(): Database {
    return this.db;
  }
}
