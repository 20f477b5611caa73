import type { Database } from 'bun:sqlite';
import { sha256Hex } from '../hash';
import type { FacilityIndex } from '../index/facility-index';
import { matchExpression } from './match';
import type { CursorKey } from './cursor';
import type { SearchRequest } from './query';

/** A facility found, with its sort key and its location (for the export forms). */
export type SearchHit = {
  registry_id: string;
  fac_name: string;
  fac_city: string;
  fac_state: string;
  overall_score: number;
  active_enforcement: boolean;
  lat: number;
  lng: number;
  key: CursorKey;
};

/** Column weights of the relevance order (name, street, city, ZIP): a word in the name counts most. */
const BM25 = 'bm25(facility_search, 4.0, 1.0, 2.0, 2.0)';

/**
 * A query whose words match more than this many facilities (filters aside) is "broad": it is not
 * ranked by BM25 but answered in the score order (see `page`), because ranking means scoring every
 * match before the first page (3-letter prefixes of common words match 10^5 of 3.2M facilities).
 */
export const RANKED_MATCHES = 1000;

// Every filter is a bound parameter that is NULL when unused: one statement per order, never SQL from input.
const FILTERS = `
    AND (?2 IS NULL OR d.fac_state = ?2)
    AND (?3 IS NULL OR substr(d.fac_naics, 1, length(?3)) = ?3)
    AND (?4 IS NULL OR d.overall_score >= ?4)
    AND (?5 IS NULL OR d.overall_score <= ?5)
    AND (?6 IS NULL OR d.active_enforcement = ?6)`;
// Relevance: BM25 of every match (only for queries of at most RANKED_MATCHES matches), keyset on (bm25, registry_id).
const RANKED = `
  SELECT registry_id, k FROM (
    SELECT d.registry_id, ${BM25} AS k
    FROM facility_search JOIN search_doc d ON d.docid = facility_search.rowid
    WHERE facility_search MATCH ?1 ${FILTERS})
  WHERE ?7 IS NULL OR k > ?7 OR (k = ?7 AND registry_id > ?8)
  ORDER BY k, registry_id LIMIT ?9`;
// The score order: docids are numbered in (overall_score, registry_id) order at build time
// (src/index/search-table.ts), so FTS5 walks the matches in that order and stops after a page.
const BY_DOCID = `
  SELECT d.registry_id, d.docid AS k
  FROM facility_search JOIN search_doc d ON d.docid = facility_search.rowid
  WHERE facility_search MATCH ?1 AND facility_search.rowid > ?7 ${FILTERS}
  ORDER BY facility_search.rowid LIMIT ?8`;
const COUNT = 'SELECT count(*) AS n FROM (SELECT rowid FROM facility_search WHERE facility_search MATCH ?1 LIMIT ?2)';

type Row = Omit<SearchHit, 'key' | 'active_enforcement'> & { active_enforcement: number };

/**
 * The read side of the search tables (src/index/search-table.ts) on one open index; statements
 * prepared once. Pages are keyset pages: each starts strictly after the last (sort key,
 * registry_id) of the previous one, so no facility is skipped or repeated while the index is the same.
 */
export class FacilitySearch {
  /** Identifies the index file's content; a cursor made on another one is refused (cursor.ts). */
  readonly fingerprint: string;
  private readonly ranked;
  private readonly byDocid;
  private readonly count;
  private readonly details;

  /**
   * The search over `index`, or null when the index has no usable search tables: none (format 3,
   * built before search existed) or the first layout (formats 4 and 5: docids not in score order).
   */
  static open(index: FacilityIndex, rankedMatches = RANKED_MATCHES): FacilitySearch | null {
    const has = index.db.query("SELECT 1 AS ok FROM sqlite_master WHERE name = 'facility_search'").get();
    const format = index.db.query<{ value: string }, []>("SELECT value FROM index_meta WHERE key = 'format'").get();
    return has && format?.value !== '4' && format?.value !== '5' ? new FacilitySearch(index, rankedMatches) : null;
  }

  private constructor(
    index: FacilityIndex,
    private readonly rankedMatches: number,
  ) {
    const db: Database = index.db;
    this.fingerprint = sha256Hex(JSON.stringify(index.info)).slice(0, 16);
    this.ranked = db.prepare<{ registry_id: string; k: number }, (string | number | null)[]>(RANKED);
    this.byDocid = db.prepare<{ registry_id: string; k: number }, (string | number | null)[]>(BY_DOCID);
    this.count = db.prepare<{ n: number }, [string, number]>(COUNT);
    this.details = db.prepare<Row, [string]>(
      `SELECT registry_id, fac_name, fac_city, fac_state, overall_score, active_enforcement, lat, lng
       FROM facility WHERE registry_id IN (SELECT value FROM json_each(?1))`,
    );
  }

  /**
   * Up to `limit` facilities of the page after `r.after`, plus whether another page follows.
   *
   * `sort=score`, and relevance for a broad query (more than `rankedMatches` matches of the words),
   * walk the matches in docid order, which is (overall_score, registry_id): worst first, stopping
   * after one page. A relevance query with fewer matches is ranked by BM25. Which order a query gets
   * depends only on its words and the index file, both sealed into the cursor, so its pages agree.
   */
  page(r: SearchRequest): { hits: SearchHit[]; more: boolean } {
    const match = matchExpression(r.words);
    const filters = [r.state, r.naics, r.minScore, r.maxScore, r.activeEnforcement === null ? null : r.activeEnforcement ? 1 : 0];
    const keys =
      r.sort === 'relevance' && !this.isBroad(match)
        ? this.ranked.all(match, ...filters, r.after?.value ?? null, r.after?.registryId ?? null, r.limit + 1)
        : this.byDocid.all(match, ...filters, r.after?.value ?? 0, r.limit + 1);
    const more = keys.length > r.limit;
    if (more) keys.pop();
    const rows = new Map(this.details.all(JSON.stringify(keys.map((k) => k.registry_id))).map((row) => [row.registry_id, row]));
    const hits = keys.map(({ registry_id, k }) => {
      const row = rows.get(registry_id);
      // Both tables come from the same build of this read-only file: a miss is a bug.
      if (!row) throw new Error(`search table and facility table disagree about ${registry_id}`);
      return { ...row, active_enforcement: row.active_enforcement === 1, key: { value: k, registryId: registry_id } };
    });
    return { hits, more };
  }

  /** Whether the words match more than `rankedMatches` facilities (counting stops there). */
  isBroad(match: string): boolean {
    return this.count.get(match, this.rankedMatches + 1)!.n > this.rankedMatches;
  }
}
