import type { Database } from 'bun:sqlite';
import { BUCKET } from './docids';

/**
 * The facility search table (src/search/): an FTS5 index over name, street, city and ZIP, filled once
 * at the end of a build from the facility table, or during the load in a file of their own
 * (docs/search.md, "The search tables").
 *
 * - One column, `words`: the four fields joined by spaces. FTS5 only finds candidates here; which
 *   field a word is in matters for the relevance order, which src/search/rank.ts computes from the
 *   facility's own fields, so the index keeps no columns, positions (`detail=none`) or lengths
 *   (`columnsize=0`): each word costs one docid in its list, the smallest and fastest index to fill.
 * - Contentless (`content=''`): the words are not stored twice; results are read from `facility`.
 * - `tokenize='ascii'`: ASCII letters and digits form words, every other ASCII character separates
 *   them, non-ASCII bytes are word characters. It is the cheapest tokenizer, and the query side
 *   (src/search/match.ts) splits words by exactly the same rule, so a query word is always one
 *   index word and no input can form FTS syntax.
 * - `prefix='3 4'`: a 3- or 4-letter prefix is one list, read lazily in docid order, instead of the
 *   union of every word so starting, merged in full before the first row. Longer words are read by
 *   their first four letters and checked against the facility's fields (src/search/word-plan.ts).
 * - `search_doc` maps the FTS rowid to the registry ID and carries the filter and sort columns, so
 *   a search filters its candidates by integer-keyed reads. Docids are numbered in
 *   (overall_score, registry_id) order: FTS5 yields matches in rowid order, so the score order is
 *   read a page at a time, never sorted (src/search/facility-search.ts). A docid is
 *   score * 2^32 + rank within the score (./docids.ts), so ingest can number and index the
 *   rows while they stream in, on a second thread (./build.ts).
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
CREATE VIRTUAL TABLE facility_search USING fts5(words, content='', tokenize='ascii', detail=none, columnsize=0, prefix='3 4');
`;

/**
 * Automatic merging off while a build fills the table: one 'optimize' at the end (`optimizeSearch`)
 * merges the segments into one b-tree for the readers. The term buffer keeps FTS5's default size
 * (1 MiB): larger buffers did not build the national file faster (`scripts/bench-search-ingest.ts`).
 */
export function startSearchFill(db: Database): void {
  db.exec(`INSERT INTO facility_search(facility_search, rank) VALUES ('automerge', 0)`);
}

export function optimizeSearch(db: Database): void {
  db.exec(`INSERT INTO facility_search(facility_search) VALUES ('optimize')`);
}

/** The words a facility is found by: name, street, city and ZIP (as fillSearchTables joins them in SQL). */
export function searchWords(name: string, street: string, city: string, zip: string): string {
  return `${name} ${street} ${city} ${zip}`;
}

/**
 * Fills the search tables from `facility` inside the build's transaction, when ingest did not build
 * them in a file of their own during the load (./build.ts: a small input, or rows not in
 * registry-ID order) and for indexes built row by row (tests): one sort of the facility rows into
 * docid order (with the words), then two appends in that order. Docids must reach FTS5 in
 * ascending order (a smaller rowid makes it flush its term buffer).
 */
export function fillSearchTables(db: Database): void {
  startSearchFill(db);
  db.exec(`CREATE TEMP TABLE search_fill (docid INTEGER PRIMARY KEY, registry_id TEXT, fac_state TEXT, fac_naics TEXT, overall_score INTEGER, active_enforcement INTEGER, words TEXT)`);
  db.exec(`INSERT INTO temp.search_fill
    SELECT overall_score * ${BUCKET} + row_number() OVER (PARTITION BY overall_score ORDER BY registry_id), registry_id, fac_state, fac_naics, overall_score, active_enforcement,
      fac_name || ' ' || fac_street || ' ' || fac_city || ' ' || fac_zip
    FROM facility`);
  db.exec(`INSERT INTO search_doc SELECT docid, registry_id, fac_state, fac_naics, overall_score, active_enforcement FROM temp.search_fill ORDER BY docid`);
  db.exec(`INSERT INTO facility_search (rowid, words) SELECT docid, words FROM temp.search_fill ORDER BY docid`);
  db.exec('DROP TABLE temp.search_fill');
  optimizeSearch(db);
}
