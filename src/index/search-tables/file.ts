import type { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import { indexIdentity } from '../identity';
import type { IndexInfo } from '../model';

/**
 * A national index's search tables live in a file of their own beside it, `<index>.search`
 * (docs/search.md, "The search tables"): ingest builds them on a second thread while it loads
 * (./build.ts), and SQLite can only move FTS5's tables between files by building them again
 * (bun:sqlite runs SQLite in defensive mode, where FTS5's shadow tables cannot be written by SQL).
 * Readers attach the file under the schema name `search`; the statements name the tables without a
 * schema, so they read the same SQL either way. Smaller builds keep the tables in the index file.
 */
export const SEARCH_SCHEMA = 'search';

export function searchFilePath(indexPath: string): string {
  return `${indexPath}.search`;
}

/** The table tying a search file to its index: `index_identity`, its indexIdentity (./identity.ts). */
export const SEARCH_META_DDL = 'CREATE TABLE search_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID';

const NO_SEARCH_TABLES = 'none (its .search file is missing): search unavailable';

/** Where an index's own search tables are, in the words of the log lines: in it, or none. */
export function ownSearchTables(db: Database): string {
  return db.query("SELECT 1 AS ok FROM main.sqlite_master WHERE name = 'facility_search'").get() ? 'in the index' : NO_SEARCH_TABLES;
}

/**
 * Attaches `<indexPath>.search` to `db` (the index, opened read-only) when the index has no search
 * tables of its own and the file belongs to it. A file of another build (an interrupted release, a
 * copy beside the wrong index) or one that cannot be read is left unattached: the index serves
 * everything but search, which answers 503 saying to rebuild (src/search/).
 * Returns whether it attached the file and where the search tables are, in words for the start and
 * reload log lines. Never throws: the index's own checks report a bad index.
 */
export function attachSearchFile(db: Database, indexPath: string): { attached: boolean; note: string } {
  const path = searchFilePath(indexPath);
  let own = NO_SEARCH_TABLES;
  let info: string | undefined;
  try {
    own = ownSearchTables(db);
    if (own !== NO_SEARCH_TABLES || !existsSync(path)) return { attached: false, note: own };
    info = db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'info'").get()?.value;
  } catch {
    return { attached: false, note: own }; // not an index: FacilityIndex says so
  }
  if (info === undefined) return { attached: false, note: own };
  try {
    db.prepare(`ATTACH DATABASE ? AS ${SEARCH_SCHEMA}`).run(path);
  } catch (e) {
    return { attached: false, note: `${path} cannot be opened (${(e as Error).message}): search unavailable` };
  }
  let why = 'is not tied to this index (another build): search unavailable';
  try {
    const tied = db.query<{ value: string }, []>(`SELECT value FROM ${SEARCH_SCHEMA}.search_meta WHERE key = 'index_identity'`).get()?.value;
    const tables = db.query(`SELECT 1 FROM ${SEARCH_SCHEMA}.sqlite_master WHERE name IN ('facility_search', 'search_doc')`).all().length;
    if (tied === indexIdentity(JSON.parse(info) as IndexInfo) && tables === 2) return { attached: true, note: `in ${path}` };
  } catch {
    why = 'is not a search file: search unavailable';
  }
  db.exec(`DETACH DATABASE ${SEARCH_SCHEMA}`);
  return { attached: false, note: `${path} ${why}` };
}
