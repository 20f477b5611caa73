import { describe, expect, it } from 'bun:test';
import { FacilitySearch } from '../../src/search/facility-search';
import type { SearchRequest } from '../../src/search/query';
import { memoryIndex } from '../helpers';
import { RIVER_ROWS, SEARCH_ROWS } from './fixtures';

// The broad-query rule (docs/search.md, "Broad queries"): a relevance query whose words match more
// than `rankedMatches` facilities comes in the score order instead of BM25. The national bound is
// RANKED_MATCHES; here it is lowered so the fixture's queries fall on both sides of it.
const index = memoryIndex([...SEARCH_ROWS, ...RIVER_ROWS]);
const rows = [...SEARCH_ROWS, ...RIVER_ROWS];
const request = (words: string[], over: Partial<SearchRequest> = {}): SearchRequest => ({
  words, state: null, naics: null, minScore: null, maxScore: null, activeEnforcement: null, sort: 'relevance', limit: 100, after: null, ...over,
});
const ids = (search: FacilitySearch, r: SearchRequest) => search.page(r).hits.map((h) => h.registry_id);
/** Worst score first, ties by registry ID: the order of sort=score. */
const byScore = (found: string[]) =>
  rows.filter((r) => found.includes(r.registry_id)).sort((a, b) => a.overall_score - b.overall_score || (a.registry_id < b.registry_id ? -1 : 1)).map((r) => r.registry_id);

describe('broad queries: relevance ranks at most rankedMatches matches', () => {
  it('"elkhart" (3 matches) is ranked by BM25 when the bound is 3: the name match ELKHART TRUCK WASH (score 91) comes first', () => {
    const search = FacilitySearch.open(index, 3)!;
    expect(ids(search, request(['elkhart']))).toEqual(['990000000104', '990000000103', '990000000101']);
  });

  it('with a bound of 2 the same query is broad and comes worst score first (35, 62, 91), like sort=score', () => {
    const search = FacilitySearch.open(index, 2)!;
    const found = ids(search, request(['elkhart']));
    expect(found).toEqual(['990000000103', '990000000101', '990000000104']);
    expect(found).toEqual(ids(search, request(['elkhart'], { sort: 'score' })));
  });

  it('the bound counts the words\' matches, not what the filters keep: "elkhart" in IN is still broad with a bound of 2', () => {
    const search = FacilitySearch.open(index, 2)!;
    expect(ids(search, request(['elkhart'], { state: 'IN' }))).toEqual(['990000000103', '990000000101']);
  });

  it('walking the pages of a broad query returns every match once, worst score first, ties by registry ID', () => {
    const search = FacilitySearch.open(index, 5)!;
    const all = ids(search, request(['riv']));
    expect(all.length).toBe(26);
    expect(all).toEqual(byScore(all));
    for (const limit of [1, 2, 7]) {
      const seen: string[] = [];
      let after: SearchRequest['after'] = null;
      for (;;) {
        const { hits, more } = search.page(request(['riv'], { limit, after }));
        seen.push(...hits.map((h) => h.registry_id));
        if (!more) break;
        after = hits.at(-1)!.key;
      }
      expect(seen).toEqual(all);
    }
  });

  it('filters apply to a broad query\'s pages: min_score=60 keeps only those at 60 or above, in order', () => {
    const search = FacilitySearch.open(index, 5)!;
    const found = ids(search, request(['riv'], { minScore: 60 }));
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(byScore(rows.filter((r) => r.overall_score >= 60 && /RIV/.test(`${r.fac_name} ${r.fac_street} ${r.fac_city}`)).map((r) => r.registry_id)));
  });
});
