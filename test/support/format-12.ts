import { Database } from 'bun:sqlite';
import { SITE_BIT } from '../../src/index/site-facts';

/**
 * Turns a current index file, in place, into a format-12 file (the format before the current one,
 * which `ingest --previous` still reads): the same tables, `facility.site_facts` without the bit that
 * says the data is not enough to judge.
 */
export function toFormat12(path: string): void {
  const db = new Database(path, { strict: true });
  db.run('UPDATE facility SET site_facts = site_facts & ?', [~SITE_BIT.insufficientData & 0xffff]);
  db.exec("UPDATE index_meta SET value = '12' WHERE key = 'format'; VACUUM");
  db.close();
}

/** Turns a current index file, in place, into the format-11 layout: no `facility.loc_accuracy_m` and `loc_method` columns. */
export function toFormat11(path: string): void {
  const db = new Database(path, { strict: true });
  db.exec("ALTER TABLE facility DROP COLUMN loc_accuracy_m; ALTER TABLE facility DROP COLUMN loc_method; UPDATE index_meta SET value = '11' WHERE key = 'format'; VACUUM");
  db.close();
}
