import { Database } from 'bun:sqlite';

/**
 * Turns a current index file, in place, into the format-11 layout (the format before the current one,
 * which `ingest --previous` still reads): no `facility.loc_accuracy_m` and `loc_method` columns.
 * Everything else of the two layouts is the same.
 */
export function toFormat11(path: string): void {
  const db = new Database(path, { strict: true });
  db.exec("ALTER TABLE facility DROP COLUMN loc_accuracy_m; ALTER TABLE facility DROP COLUMN loc_method; UPDATE index_meta SET value = '11' WHERE key = 'format'; VACUUM");
  db.close();
}
