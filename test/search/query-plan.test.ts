import { Database } from 'bun:sqlite';
import { describe, expect, it } from 'bun:test';
import type { FacilityRow } from '../../src/index/model';
import { FacilitySearch } from '../../src/search/facility-search';
import { queryWords } from '../../src/search/match';
import type { SearchRequest } from '../../src/search/query';
import { idf, matchesAll, relevance, wordCount } from '../../src/search/rank';
import { facility, memoryIndex } from '../helpers';
import { SEARCH_ROWS } from './fixtures';

// How a query is read (docs/search.md): words of 5+ letters by their first four letters and checked
// when common among them, else whole; 1-2 letter words only checked beside a longer word; relevance
// computed here with FTS5's bm25() formula. Every path must give exactly the matches of the rule
// "every word starts a word of the name, street, city or ZIP", which the oracle below applies to the rows.

// A seeded generator, so the fixture and the queries are the same on every run.
let state = 0x2545f491;
const random = () => ((state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32);
const pickOf = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;

// Words sharing 4-letter heads: PLANT is common under PLAN, PLANS rare; WATER / WATERFORD / WATTS; short words.
const NAME = ['PLANT', 'PLANT', 'PLANT', 'PLANTATION', 'PLANO', 'WATER', 'WATER', 'WATERFORD', 'WATTS', 'ACME', 'A', 'B', 'CO', 'INC', 'ÉCOLE'];
const CITY = ['PLANO', 'WATERTOWN', 'ELKHART', 'ELK GROVE', 'AKRON', 'ST PAUL'];
const STREET = ['MAIN ST', 'PLANT RD', 'WATER ST', 'A AVE', '1ST ST'];
const rows: FacilityRow[] = Array.from({ length: 400 }, (_, i) =>
  facility({
    registry_id: `9900000${String(10000 + i)}`,
    fac_name: `${pickOf(NAME)} ${pickOf(NAME)}${random() < 0.5 ? ` ${pickOf(NAME)}` : ''}${i % 40 === 0 ? ' PLANS' : ''}`,
    fac_street: `${1 + Math.floor(random() * 300)} ${pickOf(STREET)}`,
    fac_city: pickOf(CITY),
    fac_state: pickOf(['IN', 'TX', 'OH']),
    fac_zip: String(46500 + Math.floor(random() * 30)),
    overall_score: Math.floor(random() * 5) * 20,
  }),
);
const index = memoryIndex(rows);
const request = (words: string[], over: Partial<SearchRequest> = {}): SearchRequest => ({
  words, state: null, naics: null, minScore: null, maxScore: null, activeEnforcement: null, sort: 'relevance', limit: 100, after: null, ...over,
});
/** The rule itself, on the rows: every word starts a word of some field (split by match.ts, not by rank.ts). */
const matches = (r: FacilityRow, words: string[]) =>
  words.every((w) => [r.fac_name, r.fac_street, r.fac_city, r.fac_zip].some((f) => queryWords(f).some((t) => t.startsWith(w))));
const oracle = (words: string[]) => rows.filter((r) => matches(r, words));
const byScore = (found: FacilityRow[]) =>
  [...found].sort((a, b) => a.overall_score - b.overall_score || (a.registry_id < b.registry_id ? -1 : 1)).map((r) => r.registry_id);

function walk(search: FacilitySearch, r: SearchRequest, limit: number): string[] {
  const seen: string[] = [];
  let after: SearchRequest['after'] = null;
  for (;;) {
    const { hits, more } = search.page({ ...r, limit, after });
    seen.push(...hits.map((h) => h.registry_id));
    if (!more) return seen;
    after = hits.at(-1)!.key;
  }
}

describe('how query words are read', () => {
  const search = FacilitySearch.open(index)!;

  it('a 5+ letter word common among the facilities its first four letters find is read by them and checked; a rare one whole', () => {
    const plant = search.plan(['plant']).words[0]!;
    expect(plant).toMatchObject({ term: 'plan', checked: true });
    const plans = search.plan(['plans']).words[0]!;
    expect(plans).toMatchObject({ term: 'plans', checked: false });
  });

  it('a 3-4 letter word is its own prefix list; a 1-2 letter word is only checked beside a longer word, and read whole alone', () => {
    expect(search.plan(['wat']).words[0]).toMatchObject({ term: 'wat', checked: false });
    expect(search.plan(['st', 'plano']).words[0]).toMatchObject({ term: null, checked: true });
    expect(search.plan(['st']).words[0]).toMatchObject({ term: 'st', checked: false });
  });

  it('the estimated match counts are exact for a word with fewer candidates than the sample, and near for one with more', () => {
    const [elkh] = search.plan(['elkh']).words;
    expect(elkh!.docs).toBe(oracle(['elkh']).length);
    const [plant] = search.plan(['plant']).words;
    const truth = oracle(['plant']).length;
    expect(plant!.docs).toBeGreaterThan(truth * 0.6);
    expect(plant!.docs).toBeLessThan(truth * 1.6);
  });

  const queries = [
    ['plant'], ['plans'], ['plantation'], ['water'], ['waterf'], ['watt'], ['plant', 'water'], ['plans', 'elk'], ['a', 'plant'],
    ['co', 'st', 'plano'], ['st', 'paul'], ['a'], ['b', 'co'], ['1st', 'plant'], ['école'], ['éc'], ['4651'], ['plant', 'plantation', 'waterto'],
  ];

  it.each(queries)('%j: both orders return exactly the rule\'s matches, walked with limits 1, 3 and 100 without a facility twice or skipped', (...words) => {
    const truth = oracle(words);
    for (const sort of ['relevance', 'score'] as const) {
      const onePage = walk(search, request(words, { sort }), 100);
      expect(onePage.slice().sort()).toEqual(truth.map((r) => r.registry_id).sort());
      if (sort === 'score') expect(onePage).toEqual(byScore(truth));
      for (const limit of [1, 3]) expect(walk(search, request(words, { sort }), limit)).toEqual(onePage);
    }
  });

  it('filters apply to checked words: plant in TX with a score of at least 40', () => {
    const found = walk(search, request(['plant'], { state: 'TX', minScore: 40, sort: 'score' }), 7);
    expect(found).toEqual(byScore(oracle(['plant']).filter((r) => r.fac_state === 'TX' && r.overall_score >= 40)));
  });

  it('the broad-query rule counts the candidates as the index reads them: with a bound under them, relevance comes in score order', () => {
    const low = FacilitySearch.open(index, 5)!;
    const found = walk(low, request(['plant']), 100);
    expect(found).toEqual(byScore(oracle(['plant'])));
  });
});

describe('relevance is FTS5\'s bm25() with the field weights', () => {
  it('equals bm25(4, 1, 2, 2) of a four-column FTS5 table over the same facilities, given the same match counts', () => {
    const all = [...SEARCH_ROWS, ...rows];
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(name, street, city, zip, tokenize='ascii')");
    const insert = db.prepare('INSERT INTO t (rowid, name, street, city, zip) VALUES (?, ?, ?, ?, ?)');
    all.forEach((r, i) => insert.run(i + 1, r.fac_name, r.fac_street, r.fac_city, r.fac_zip));
    const avgWords = all.reduce((s, r) => s + [r.fac_name, r.fac_street, r.fac_city, r.fac_zip].flatMap(queryWords).length, 0) / all.length;
    for (const q of [['acme', 'plat'], ['elkhart'], ['plant', 'wat'], ['a', 'st', 'plano'], ['river']]) {
      const expression = q.map((w) => `"${w}"*`).join(' ');
      const weights = q.map((w) => idf(all.filter((r) => matches(r, [w])).length, all.length));
      const fts = db.query<{ rowid: number; k: number }, [string]>('SELECT rowid, bm25(t, 4.0, 1.0, 2.0, 2.0) AS k FROM t WHERE t MATCH ? ORDER BY rowid').all(expression);
      expect(fts.length).toBeGreaterThan(0);
      for (const { rowid, k } of fts) expect(relevance(all[rowid - 1]!, q, weights, avgWords)).toBeCloseTo(k, 9);
    }
  });

  it('reads the fields by the index\'s word rule (match.ts): counts and matches agree with queryWords, case, punctuation and non-ASCII included', () => {
    const odd = facility({ registry_id: '990000099999', fac_name: 'Plant-WATER, École "ACME"\nINC', fac_street: '1st/2nd ÉLM St.', fac_city: 'São Paulo', fac_zip: '0' });
    expect(queryWords(odd.fac_name)).toEqual(['plant', 'water', 'École', 'acme', 'inc']);
    for (const r of [odd, ...SEARCH_ROWS, ...rows]) {
      expect(wordCount(r)).toBe([r.fac_name, r.fac_street, r.fac_city, r.fac_zip].flatMap(queryWords).length);
      for (const w of ['plan', 'plant', 'water', 'éc', 'École', 'école', 'acme', 'inc', '1st', '2', 'são', 'paulo', 'st', '0', 'elkh', 'x']) {
        expect([r.registry_id, w, matchesAll(r, [w])]).toEqual([r.registry_id, w, matches(r, [w])]);
      }
    }
  });
});
