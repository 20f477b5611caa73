import type { Database } from 'bun:sqlite';

/**
 * The facility search table (src/search/): an FTS5 index over name, street, city and ZIP, filled once
 * at the end of a build from the facility table.
 *
 * - Contentless (`content=''`): the words live only in the inverted index, never twice; results are
 *   read back from `facility`. Full detail (positions): a contentless table with `detail=column`
 *   or `none` cannot rank (bm25 is 0 for every row), and the relevance order needs it.
 * - `tokenize='ascii'`: ASCII letters and digits form words, every other ASCII character separates
 *   them, non-ASCII bytes are word characters. It is the cheapest tokenizer, and the query side
 *   (src/search/match.ts) splits words by exactly the same rule, so a query word is always one
 *   index word and no input can form FTS syntax.
 * - `prefix='3 4'`: 3- and 4-letter prefix queries read one term of a prefix index, lazily, instead
 *   of merging the doclists of every word so starting (docs/search.md, "Figures").
 * - `search_doc` maps the FTS rowid to the registry ID and carries the filter and sort columns, so
 *   a search filters and orders its matches by integer-keyed reads without touching `facility`.
 *   Docids are numbered in (overall_score, registry_id) order: FTS5 yields matches in rowid order,
 *   so the score order is read a page at a time, never sorted (src/search/facility-search.ts).
 */
export const SEARCH_DDL = `
CREATE TABLE search_doc (
  docid INTEGER PRIMARY KEY,
  registry_id TEXT NOT NULL,
  fac_state TEXT NOT NULL,
  fac_naics TEXT NOT NULL,
  overall_score INTEGER NOT NULL,
  active_enforcement INTEGER NOT NULL
);
CREATE VIRTUAL TABLE facility_search USING fts5(name, street, city, zip, content='', tokenize='ascii', prefix='3 4');
`;

/**
 * Fills the search tables from `facility`, in one pass each, inside the build's transaction.
 * Measured on the national file (3.2M rows): merging segments only once at the end ('optimize',
 * automerge off, a 64 MiB in-memory hash) ... see docs/search.md for the figures.
 */
export function fillSearchTables(db: Database): void {
  db.exec(`INSERT INTO facility_search(facility_search, rank) VALUES ('automerge', 0)`);
  db.exec(`INSERT INTO facility_search(facility_search, rank) VALUES ('hashsize', 67108864)`);
  db.exec(`INSERT INTO search_doc (registry_id, fac_state, fac_naics, overall_score, active_enforcement)
    SELECT registry_id, fac_state, fac_naics, overall_score, active_enforcement FROM facility ORDER BY overall_score, registry_id`);
  db.exec(`INSERT INTO facility_search (rowid, name, street, city, zip)
    SELECT d.docid, f.fac_name, f.fac_street, f.fac_city, f.fac_zip FROM search_doc d JOIN facility f ON f.registry_id = d.registry_id`);
  db.exec(`INSERT INTO facility_search(facility_search) VALUES ('optimize')`);
}
