import { Database } from 'bun:sqlite';

/** Table `facility` as format 10 wrote it: coordinates required, no `completeness` or `evidence` column. */
const FACILITY_10 = `CREATE TABLE facility_10 (
  registry_id TEXT PRIMARY KEY NOT NULL, fac_name TEXT NOT NULL, fac_street TEXT NOT NULL, fac_city TEXT NOT NULL,
  fac_state TEXT NOT NULL, fac_zip TEXT NOT NULL, lat REAL NOT NULL, lng REAL NOT NULL, fac_naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL, active_enforcement INTEGER NOT NULL, baseline INTEGER NOT NULL, violation_frequency INTEGER NOT NULL,
  penalty_severity INTEGER NOT NULL, recency INTEGER NOT NULL, repeat_offender INTEGER NOT NULL, score_hash TEXT NOT NULL, detail
) WITHOUT ROWID`;
const COLUMNS_10 =
  'registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, lat, lng, fac_naics, overall_score, active_enforcement, baseline, violation_frequency, penalty_severity, recency, repeat_offender, score_hash, detail';

/**
 * Turns a current index file, in place, into the format-10 layout (the format before the current one,
 * which `ingest --previous` still reads): `facility.lat`/`lng` NOT NULL (format 10 rejected rows without
 * coordinates, so the file must have none), no `completeness` and `evidence` columns and no
 * `completeness_kind` table. Everything else of the two layouts is the same.
 */
export function toFormat10(path: string): void {
  const db = new Database(path, { strict: true });
  const unplaced = db.query<{ n: number }, []>('SELECT count(*) AS n FROM facility WHERE lat IS NULL').get()!.n;
  if (unplaced > 0) throw new Error(`a format-10 index cannot hold ${unplaced} facilities without coordinates`);
  db.exec('BEGIN');
  db.exec(FACILITY_10);
  db.exec(`INSERT INTO facility_10 SELECT ${COLUMNS_10} FROM facility; DROP TABLE facility; ALTER TABLE facility_10 RENAME TO facility`);
  db.exec("DROP TABLE completeness_kind; DELETE FROM index_meta WHERE key = 'evidence_reported'; UPDATE index_meta SET value = '10' WHERE key = 'format'; COMMIT; VACUUM");
  db.close();
}
