import type { Database } from 'bun:sqlite';
import { existsSync, readFileSync } from 'node:fs';
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

/**
 * The index_meta key holding the CRC-32 of its search file's bytes, written by ingest once the file
 * is complete. The identity in search_meta binds the file to its build; this binds it to its
 * content, so a damaged file is refused at open instead of answering searches from damaged pages.
 */
export const SEARCH_CHECKSUM_KEY = 'search_crc32';

/** CRC-32 (8 hex digits) of the file at `path`, read through a mapping where the runtime offers one. */
export function searchFileChecksum(path: string): string {
  let bytes: Uint8Array;
  try {
    bytes = Bun.mmap(path, { shared: false });
  } catch {
    bytes = readFileSync(path);
  }
  return Bun.hash.crc32(bytes).toString(16).padStart(8, '0');
}

/** Where an index's own search tables are, in the words of the log lines: in it, or none. */
export function ownSearchTables(db: Database): string {
  return db.query("SELECT 1 AS ok FROM main.sqlite_master WHERE name = 'facility_search'").get() ? 'in the index' : NO_SEARCH_TABLES;
}

/**
 * Attaches `<indexPath>.search` to `db` (the index, opened read-only) when the index has no search
 * tables of its own and the file belongs to it. A file of another build (an interrupted release, a
 * copy beside the wrong index) or one that cannot be read is left unattached: the index serves
 * everything but search, which answers 503 saying to rebuild (src/search/).
 * A file whose bytes do not match the checksum its index records is damaged: left unattached too,
 * `damaged` set so a reload refuses the release (src/cli/service-process.ts).
 * Returns whether it attached the file and where the search tables are, in words for the start and
 * reload log lines. Never throws: the index's own checks report a bad index.
 */
export function attachSearchFile(db: Database, indexPath: string): { attached: boolean; note: string; damaged?: true } {
  const path = searchFilePath(indexPath);
  let own = NO_SEARCH_TABLES;
  let info: string | undefined;
  let checksum: string | undefined;
  try {
    own = ownSearchTables(db);
    if (own !== NO_SEARCH_TABLES || !existsSync(path)) return { attached: false, note: own };
    info = db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'info'").get()?.value;
    checksum = db.query<{ value: string }, [string]>('SELECT value FROM index_meta WHERE key = ?').get(SEARCH_CHECKSUM_KEY)?.value;
  } catch {
    return { attached: false, note: own }; // not an index: FacilityIndex says so
  }
  if (info === undefined) return { attached: false, note: own };
  // Indexes built before the checksum was recorded have none to check against. A file that is not
  // the one its index recorded is refused by a reload whatever else is wrong with it.
  const damaged = checksum !== undefined && searchFileChecksum(path) !== checksum ? ({ damaged: true } as const) : {};
  try {
    db.prepare(`ATTACH DATABASE ? AS ${SEARCH_SCHEMA}`).run(path);
  } catch (e) {
    return { attached: false, note: `${path} cannot be opened (${(e as Error).message}): search unavailable`, ...damaged };
  }
  let why = 'is not tied to this index (another build): search unavailable';
  try {
    const tied = db.query<{ value: string }, []>(`SELECT value FROM ${SEARCH_SCHEMA}.search_meta WHERE key = 'index_identity'`).get()?.value;
    const tables = db.query(`SELECT 1 FROM ${SEARCH_SCHEMA}.sqlite_master WHERE name IN ('facility_search', 'search_doc')`).all().length;
    if (tied === indexIdentity(JSON.parse(info) as IndexInfo) && tables === 2) {
      if (!damaged.damaged) return { attached: true, note: `in ${path}` };
      why = 'is damaged (its bytes do not match the checksum its index records): search unavailable';
    }
  } catch {
    why = 'is not a search file: search unavailable';
  }
  db.exec(`DETACH DATABASE ${SEARCH_SCHEMA}`);
  return { attached: false, note: `${path} ${why}`, ...damaged };
}
