import type { FacilityIndex } from '../index/facility-index';
import { indexIdentity } from '../index/identity';
import { SITE_BIT } from '../index/site-facts';
import type { SearchFilters, SearchReader, SearchRow } from '../index/search-tables/reader';
import type { CursorKey } from './cursor';
import { TOTAL_CAP, type SearchRequest } from './query';
import { registryIdIn } from './match';
import { idf, matchesAll, relevance, wordCount } from './rank';
import { WordPlanner, type QueryPlan } from './word-plan';

/** A facility found, with its sort key and its location (for the export forms). */
export type SearchHit = {
  registry_id: string;
  fac_name: string;
  fac_street: string;
  fac_city: string;
  fac_state: string;
  fac_zip: string;
  overall_score: number;
  active_enforcement: boolean;
  /** false: not enough data to judge (data_completeness.sufficient). */
  data_sufficient: boolean;
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

function hit(row: SearchRow, value: number): SearchHit {
  const { registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, overall_score, active_enforcement, lat, lng } = row;
  const data_sufficient = (row.site_facts & SITE_BIT.insufficientData) === 0;
  return { registry_id, fac_name, fac_street, fac_city, fac_state, fac_zip, overall_score, active_enforcement: active_enforcement === 1, data_sufficient, lat, lng, key: { value, registryId: registry_id } };
}

/**
 * The sort key of the facility a query names by registry ID (match.ts registryIdIn): below every
 * other key of either order (BM25 values and docids), so it comes first, and finite, so a cursor holds it.
 */
export const ID_MATCH_KEY = -Number.MAX_VALUE;

/**
 * Search by words over one open index's search tables (src/index/search-tables/reader.ts). Pages are
 * keyset pages: each starts strictly after the last (sort key, registry_id) of the previous one,
 * so no facility is skipped or repeated while the index is the same.
 */
export class FacilitySearch {
  /** Identifies the index file's content; a cursor made on another one is refused (cursor.ts). */
  readonly fingerprint: string;
  private readonly planner: WordPlanner;
  private readonly total: number;
  private readonly avgWords: number;

  /**
   * The search over `index`, or null when it has no search tables: its `.search` file is missing or
   * belongs to another build (src/index/search-tables/file.ts), and every search answers 503.
   */
  static open(index: FacilityIndex, rankedMatches = RANKED_MATCHES): FacilitySearch | null {
    const reader = index.search();
    return reader ? new FacilitySearch(reader, indexIdentity(index.info).slice(0, 16), rankedMatches) : null;
  }

  private constructor(
    private readonly reader: SearchReader,
    fingerprint: string,
    private readonly rankedMatches: number,
  ) {
    this.fingerprint = fingerprint;
    this.total = reader.space.total;
    this.avgWords = averageWords(reader);
    this.planner = new WordPlanner(reader);
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
   * pages agree. A query that is one registry ID has that facility first (ID_MATCH_KEY), then its
   * word matches without it.
   */
  page(r: SearchRequest): { hits: SearchHit[]; more: boolean } {
    const plan = this.planner.plan(r.words);
    const filters: SearchFilters = [r.state, r.naics, r.minScore, r.maxScore, r.activeEnforcement === null ? null : r.activeEnforcement ? 1 : 0];
    const id = registryIdIn(r.words);
    // one more word match when the named facility may be among them, to page as if it were not
    const wanted = r.limit + (id === null ? 1 : 2);
    const ids = r.sort === 'relevance' ? this.reader.firstMatches(plan.expression, this.rankedMatches + 1) : null;
    let hits = ids && ids.length <= this.rankedMatches ? this.ranked(plan, ids, filters, r, wanted) : this.inScoreOrder(plan, filters, r, wanted);
    if (id !== null) {
      hits = hits.filter((h) => h.registry_id !== id);
      const named = r.after === null ? this.reader.byRegistryId(id, filters) : null;
      if (named) hits.unshift(hit(named, ID_MATCH_KEY));
      if (hits.length > r.limit + 1) hits.length = r.limit + 1;
    }
    const more = hits.length > r.limit;
    if (more) hits.pop();
    return { hits, more };
  }

  /**
   * How many facilities the search finds, all pages together, counting stops at `cap` (then
   * `capped`): the word matches passing the filters (checked against the fields when the plan's
   * terms are shorter than its words), plus the facility a registry ID names when its words do not match it.
   */
  count(r: SearchRequest, cap = TOTAL_CAP): { total: number; capped: boolean } {
    const plan = this.planner.plan(r.words);
    const filters: SearchFilters = [r.state, r.naics, r.minScore, r.maxScore, r.activeEnforcement === null ? null : r.activeEnforcement ? 1 : 0];
    let n = 0;
    if (!plan.checked) n = this.reader.countMatching(plan.expression, filters, cap + 1);
    else for (const row of this.reader.walkDocidOrder(plan.expression, filters, 0)) if (matchesAll(row, r.words) && ++n > cap) break;
    const id = registryIdIn(r.words);
    const named = id === null ? null : this.reader.byRegistryId(id, filters);
    if (named && !matchesAll(named, r.words)) n++;
    return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
  }

  /** Whether the FTS5 expression has more than `rankedMatches` candidates (counting stops there). */
  isBroad(expression: string): boolean {
    return this.reader.countUpTo(expression, this.rankedMatches + 1) > this.rankedMatches;
  }

  /** The words' plan (for scripts/bench-search.ts). */
  plan(words: readonly string[]): QueryPlan {
    return this.planner.plan(words);
  }

  /** Up to `wanted` matches after `r.after` in docid order; unchecked candidates are matches, so SQL stops at the page. */
  private inScoreOrder(plan: QueryPlan, filters: SearchFilters, r: SearchRequest, wanted: number): SearchHit[] {
    const after = r.after?.value ?? 0;
    if (!plan.checked) return this.reader.inDocidOrder(plan.expression, filters, after, wanted).map((row) => hit(row, row.docid));
    const hits: SearchHit[] = [];
    for (const row of this.reader.walkDocidOrder(plan.expression, filters, after)) {
      if (!matchesAll(row, r.words)) continue;
      hits.push(hit(row, row.docid));
      if (hits.length >= wanted) break;
    }
    return hits;
  }

  /** Every match ranked by BM25 (ties by registry ID), then the `wanted` after `r.after`. */
  private ranked(plan: QueryPlan, ids: { docid: number }[], filters: SearchFilters, r: SearchRequest, wanted: number): SearchHit[] {
    const weights = plan.words.map((w) => idf(w.docs, this.total));
    const scored: SearchHit[] = [];
    for (const row of this.reader.candidatesOf(JSON.stringify(ids.map((i) => i.docid)), filters)) {
      if (plan.checked && !matchesAll(row, r.words)) continue;
      scored.push(hit(row, relevance(row, r.words, weights, this.avgWords)));
    }
    scored.sort((a, b) => a.key.value - b.key.value || (a.key.registryId < b.key.registryId ? -1 : a.key.registryId > b.key.registryId ? 1 : 0));
    const after = r.after;
    const start = after ? scored.findIndex((h) => h.key.value > after.value || (h.key.value === after.value && h.key.registryId > after.registryId)) : 0;
    return start < 0 ? [] : scored.slice(start, start + wanted);
  }
}

/**
 * The index's average word count per facility (BM25's average document length), from
 * LENGTH_SAMPLE facilities spread evenly over the docids: the same for every search on one file.
 */
function averageWords(reader: SearchReader): number {
  const space = reader.space;
  const total = space.total;
  if (total === 0) return 1;
  const step = Math.max(1, total / LENGTH_SAMPLE);
  const ids = [...new Set(Array.from({ length: Math.min(LENGTH_SAMPLE, total) }, (_, i) => space.docidAt(1 + Math.floor(i * step))))];
  const rows = reader.fieldsOf(JSON.stringify(ids));
  const words = rows.reduce((sum, row) => sum + wordCount(row), 0);
  return rows.length > 0 && words > 0 ? words / rows.length : 1;
}
