import type { Database } from 'bun:sqlite';

/**
 * The facility search table (src/search/): an FTS5 index over name, street, city and ZIP, filled once
 * at the end of a build from the facility table (index format 8; docs/search.md, "The search table").
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
 *   read a page at a time, never sorted (src/search/facility-search.ts).
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
 * Fills the search tables from `facility` inside the build's transaction: one sort of the facility
 * rows into docid order (with the words), then two appends in that order. Docids must reach FTS5 in
 * ascending order (a smaller rowid makes it flush its term buffer). Automatic merging is off and one
 * 'optimize' at the end merges the segments into one b-tree for the readers; the term buffer keeps
 * FTS5's default size (1 MiB): on the national file 4-64 MiB were no faster (docs/search.md, "Figures").
 */
export function fillSearchTables(db: Database): void {
  db.exec(`INSERT INTO facility_search(facility_search, rank) VALUES ('automerge', 0)`);
  db.exec(`CREATE TEMP TABLE search_fill (docid INTEGER PRIMARY KEY, registry_id TEXT, fac_state TEXT, fac_naics TEXT, overall_score INTEGER, active_enforcement INTEGER, words TEXT)`);
  db.exec(`INSERT INTO temp.search_fill
    SELECT row_number() OVER (ORDER BY overall_score, registry_id), registry_id, fac_state, fac_naics, overall_score, active_enforcement,
      fac_name || ' ' || fac_street || ' ' || fac_city || ' ' || fac_zip
    FROM facility`);
  db.exec(`INSERT INTO search_doc SELECT docid, registry_id, fac_state, fac_naics, overall_score, active_enforcement FROM temp.search_fill ORDER BY docid`);
  db.exec(`INSERT INTO facility_search (rowid, words) SELECT docid, words FROM temp.search_fill ORDER BY docid`);
  db.exec('DROP TABLE temp.search_fill');
  db.exec(`INSERT INTO facility_search(facility_search) VALUES ('optimize')`);
}
