import { Database } from 'bun:sqlite';

/**
 * Turns a current index file, in place, into the format-10 layout (the format before the current one,
 * which `ingest --previous` still reads): `facility.lat`/`lng` NOT NULL (format 10 rejected rows without
 * coordinates, so the file must have none) and no `facility_evidence` table. Everything else of the two
 * layouts is the same.
 */
export function toFormat10(path: string): void {
  const db = new Database(path, { strict: true });
  const unplaced = db.query<{ n: number }, []>('SELECT count(*) AS n FROM facility WHERE lat IS NULL').get()!.n;
  if (unplaced > 0) throw new Error(`a format-10 index cannot hold ${unplaced} facilities without coordinates`);
  const ddl = db.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'facility'").get()!.sql;
  const before = ddl.replace('CREATE TABLE facility', 'CREATE TABLE facility_10').replace(/\blat REAL,/, 'lat REAL NOT NULL,').replace(/\blng REAL,/, 'lng REAL NOT NULL,');
  if (!before.includes('lat REAL NOT NULL') || !before.includes('lng REAL NOT NULL')) throw new Error('facility DDL not as expected');
  db.exec('BEGIN');
  db.exec(before);
  db.exec('INSERT INTO facility_10 SELECT * FROM facility; DROP TABLE facility; ALTER TABLE facility_10 RENAME TO facility');
  db.exec("DROP TABLE facility_evidence; DELETE FROM index_meta WHERE key = 'evidence_reported'; UPDATE index_meta SET value = '10' WHERE key = 'format'; COMMIT; VACUUM");
  db.close();
}
