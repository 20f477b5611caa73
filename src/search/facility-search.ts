import type { Database } from 'bun:sqlite';
import type { FacilityIndex } from '../index/facility-index';
import type { FacilitySummary } from '../index/model';
import { indexIdentity } from '../index/identity';
import { DocidSpace } from '../index/search-docids';
import type { CursorKey } from './cursor';
import type { SearchRequest } from './query';
import { idf, matchesAll, relevance, wordCount } from './rank';
import { WordPlanner, type QueryPlan } from './word-plan';

/** A facility found, with its sort key and its location (for the export forms). */
export type SearchHit = {
  registry_id: string;
  fac_name: string;
  fac_city: string;
  fac_state: string;
  overall_score: number;
  active_enforcement: boolean;
  lat: number | null;
  lng: number | null;
  key: CursorKey;
};

/**
 * A query whose words match more than this many facilities (filters aside, counted as the index
 * reads them: see `page`) is "broad": it is not ranked but answered in the score order, because
 * ranking means scoring every match before the first page (3-letter prefixes of common words match
 * 10^5 of 3.2M facilities).
 */
export const RANKED_MATCHES = 500;
/** Facilities read to estimate the index's average word count (BM25's average document length). */
const LENGTH_SAMPLE = 1000;

// Every filter is a bound parameter that is NULL when unused: one statement per order, never SQL from input.
const FILTERS = `
    AND (?2 IS NULL OR d.fac_state = ?2)
    AND (?3 IS NULL OR substr(d.fac_naics, 1, length(?3)) = ?3)
    AND (?4 IS NULL OR d.overall_score >= ?4)
    AND (?5 IS NULL OR d.overall_score <= ?5)
    AND (?6 IS NULL OR d.active_enforcement = ?6)`;
const COLUMNS = `d.docid, f.registry_id, f.fac_name, f.fac_street, f.fac_city, f.fac_state, f.fac_zip,
    f.overall_score, f.active_enforcement, f.lat, f.lng`;
const FROM = `facility_search JOIN search_doc d ON d.docid = facility_search.rowid JOIN facility f ON f.registry_id = d.registry_id`;
// The candidates of a query, up to one more than RANKED_MATCHES (the broad-query count, before filters).
const FIRST_IDS = 'SELECT rowid AS docid FROM facility_search WHERE facility_search MATCH ?1 LIMIT ?2';
// The candidates of a ranked query, by docid (read once by FIRST_IDS), that pass the filters; ranked here (rank.ts).
const CANDIDATES = `SELECT ${COLUMNS} FROM search_doc d JOIN facility f ON f.registry_id = d.registry_id
  WHERE d.docid IN (SELECT value FROM json_each(?1)) ${FILTERS}`;
// The score order: docids are numbered in (overall_score, registry_id) order at build time
// (src/index/search-table.ts), so FTS5 walks the candidates in that order and the walk stops after a page.
const BY_DOCID = `SELECT ${COLUMNS} FROM ${FROM}
  WHERE facility_search MATCH ?1 AND facility_search.rowid > ?7 ${FILTERS}
  ORDER BY facility_search.rowid LIMIT ?8`;
const COUNT = 'SELECT count(*) AS n FROM (SELECT rowid FROM facility_search WHERE facility_search MATCH ?1 LIMIT ?2)';

/** A candidate as read: the index's slim-row fields a hit and its ranking need, keyed by its search docid. */
type Row = Pick<FacilitySummary, 'registry_id' | 'fac_name' | 'fac_street' | 'fac_city' | 'fac_state' | 'fac_zip' | 'overall_score' | 'lat' | 'lng'> & {
  docid: number;
  active_enforcement: number;
};
type Params = (string | number | null)[];

function hit(row: Row, value: number): SearchHit {
  const { registry_id, fac_name, fac_city, fac_state, overall_score, active_enforcement, lat, lng } = row;
  return { registry_id, fac_name, fac_city, fac_state, overall_score, active_enforcement: active_enforcement === 1, lat, lng, key: { value, registryId: registry_id } };
}

/**
 * The read side of the search tables (src/index/search-table.ts) on one open index; statements
 * prepared once. Pages are keyset pages: each starts strictly after the last (sort key,
 * registry_id) of the previous one, so no facility is skipped or repeated while the index is the same.
 */
export class FacilitySearch {
  /** Identifies the index file's content; a cursor made on another one is refused (cursor.ts). */
  readonly fingerprint: string;
  private readonly planner: WordPlanner;
  private readonly total: number;
  private readonly avgWords: number;
  private readonly firstIds;
  private readonly candidates;
  private readonly byDocid;
  private readonly count;

  /**
   * The search over `index`, or null when it has no search tables: its `.search` file is missing or
   * belongs to another build (src/index/search-file.ts), and every search answers 503.
   */
  static open(index: FacilityIndex, rankedMatches = RANKED_MATCHES): FacilitySearch | null {
    // in the index file or in its attached search file (src/index/search-file.ts)
    const has = index.hasTable('facility_search');
    return has ? new FacilitySearch(index, rankedMatches) : null;
  }

  private constructor(
    index: FacilityIndex,
    private readonly rankedMatches: number,
  ) {
    const db: Database = index.db;
    this.fingerprint = indexIdentity(index.info).slice(0, 16);
    this.firstIds = db.prepare<{ docid: number }, [string, number]>(FIRST_IDS);
    this.candidates = db.prepare<Row, Params>(CANDIDATES);
    this.byDocid = db.prepare<Row, Params>(BY_DOCID);
    this.count = db.prepare<{ n: number }, [string, number]>(COUNT);
    const space = DocidSpace.of(db);
    this.total = space.total;
    this.avgWords = averageWords(db, space);
    this.planner = new WordPlanner(db, space);
  }

  /**
   * Up to `limit` facilities of the page after `r.after`, plus whether another page follows.
   *
   * The words are planned first (word-plan.ts): FTS5 finds candidates by prefix terms, and when a
   * term is shorter than its word the candidates are checked against the facility's fields.
   * `sort=score`, and relevance for a broad query (more than `rankedMatches` candidates), walk the
   * candidates in docid order, which is (overall_score, registry_id): worst first, stopping after
   * one page. A relevance query with fewer candidates is ranked by BM25 (rank.ts). Which order a
   * query gets depends only on its words and the index file, both sealed into the cursor, so its
   * pages agree.
   */
  page(r: SearchRequest): { hits: SearchHit[]; more: boolean } {
    const plan = this.planner.plan(r.words);
    const filters = [r.state, r.naics, r.minScore, r.maxScore, r.activeEnforcement === null ? null : r.activeEnforcement ? 1 : 0];
    const ids = r.sort === 'relevance' ? this.firstIds.all(plan.expression, this.rankedMatches + 1) : null;
    const hits = ids && ids.length <= this.rankedMatches ? this.ranked(plan, ids, filters, r) : this.inScoreOrder(plan, filters, r);
    const more = hits.length > r.limit;
    if (more) hits.pop();
    return { hits, more };
  }

  /** Whether the FTS5 expression has more than `rankedMatches` candidates (counting stops there). */
  isBroad(expression: string): boolean {
    return this.count.get(expression, this.rankedMatches + 1)!.n > this.rankedMatches;
  }

  /** The words' plan (for scripts/bench-search.ts). */
  plan(words: readonly string[]): QueryPlan {
    return this.planner.plan(words);
  }

  /** Up to limit + 1 matches after `r.after` in docid order; unchecked candidates are matches, so SQL stops at the page. */
  private inScoreOrder(plan: QueryPlan, filters: Params, r: SearchRequest): SearchHit[] {
    const args = [plan.expression, ...filters, r.after?.value ?? 0];
    if (!plan.checked) return this.byDocid.all(...args, r.limit + 1).map((row) => hit(row, row.docid));
    const hits: SearchHit[] = [];
    for (const row of this.byDocid.iterate(...args, -1)) {
      if (!matchesAll(row, r.words)) continue;
      hits.push(hit(row, row.docid));
      if (hits.length > r.limit) break;
    }
    return hits;
  }

  /** Every match ranked by BM25 (ties by registry ID), then the limit + 1 after `r.after`. */
  private ranked(plan: QueryPlan, ids: { docid: number }[], filters: Params, r: SearchRequest): SearchHit[] {
    const weights = plan.words.map((w) => idf(w.docs, this.total));
    const scored: SearchHit[] = [];
    for (const row of this.candidates.all(JSON.stringify(ids.map((i) => i.docid)), ...filters)) {
      if (plan.checked && !matchesAll(row, r.words)) continue;
      scored.push(hit(row, relevance(row, r.words, weights, this.avgWords)));
    }
    scored.sort((a, b) => a.key.value - b.key.value || (a.key.registryId < b.key.registryId ? -1 : a.key.registryId > b.key.registryId ? 1 : 0));
    const after = r.after;
    const start = after ? scored.findIndex((h) => h.key.value > after.value || (h.key.value === after.value && h.key.registryId > after.registryId)) : 0;
    return start < 0 ? [] : scored.slice(start, start + r.limit + 1);
  }
}

/**
 * The index's average word count per facility (BM25's average document length), from
 * LENGTH_SAMPLE facilities spread evenly over the docids: the same for every search on one file.
 */
function averageWords(db: Database, space: DocidSpace): number {
  const total = space.total;
  if (total === 0) return 1;
  const step = Math.max(1, total / LENGTH_SAMPLE);
  const ids = [...new Set(Array.from({ length: Math.min(LENGTH_SAMPLE, total) }, (_, i) => space.docidAt(1 + Math.floor(i * step))))];
  const rows = db
    .query<{ fac_name: string; fac_street: string; fac_city: string; fac_zip: string }, [string]>(
      `SELECT f.fac_name, f.fac_street, f.fac_city, f.fac_zip FROM search_doc d JOIN facility f ON f.registry_id = d.registry_id
       WHERE d.docid IN (SELECT value FROM json_each(?1))`,
    )
    .all(JSON.stringify(ids));
  const words = rows.reduce((sum, row) => sum + wordCount(row), 0);
  return rows.length > 0 && words > 0 ? words / rows.length : 1;
}
