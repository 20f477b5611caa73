import { beforeAll, describe, expect, it } from 'bun:test';
import { openIndex } from '../../src/index/bundled';
import { FacilitySearch, ID_MATCH_KEY } from '../../src/search/facility-search';
import type { SearchRequest } from '../../src/search/query';
import { facility, json, makeWorld, memoryIndex, type TestWorld } from '../helpers';
import { ROOT } from '../support/process';

// A query that is one 12-digit registry ID finds that facility first (docs/search.md, "Matching").

describe('on the bundled sample', () => {
  let world: TestWorld;
  let key: string;
  beforeAll(async () => {
    const ensure = Bun.spawnSync([process.execPath, 'run', 'scripts/sample.ts', 'ensure'], { cwd: ROOT });
    if (ensure.exitCode !== 0) throw new Error(`sample build failed: ${ensure.stderr}`);
    world = makeWorld({ deps: { index: await openIndex(null) } });
    key = (await world.keyFor('starter')).key;
  }, 120_000);
  const search = async (query: string) => json(await world.call(`/api/v1/search?${query}`, { key }));

  it('q=990000914553 finds PLOMULON REFINING CO first, in either order', async () => {
    for (const sort of ['relevance', 'score']) {
      const body = await search(`q=990000914553&sort=${sort}`);
      expect(body.data.facilities[0]).toEqual({
        registry_id: '990000914553', fac_name: 'PLOMULON REFINING CO', overall_score: expect.any(Number), active_enforcement: expect.any(Boolean), fac_street: '27244 W HURDORA BLVD', fac_city: 'HOUSTON', fac_state: 'TX', fac_zip: '77257', data_sufficient: expect.any(Boolean),
      });
      expect(body.data.facilities.filter((f: { registry_id: string }) => f.registry_id === '990000914553')).toHaveLength(1);
      expect(body.data.total).toBe(1);
    }
  });

  it('an ID nothing has, and a prefix of an ID, name no facility by ID', async () => {
    expect((await search('q=990999999999')).data.facilities).toEqual([]);
    const prefix = await search('q=99000091455');
    expect(prefix.data.facilities.map((f: { registry_id: string }) => f.registry_id)).not.toContain('990000914553');
    // 3,315 facilities of the sample start 990000: a prefix is not an ID
    expect((await search('q=990000')).data.facilities).toEqual([]);
  });

  it('a filter the facility fails leaves it out', async () => {
    expect((await search('q=990000914553&state=IN')).data.facilities).toEqual([]);
    expect((await search('q=990000914553&state=TX')).data.facilities.map((f: { registry_id: string }) => f.registry_id)).toEqual(['990000914553']);
  });
});

describe('the named facility among word matches', () => {
  const ID = '990000000301';
  // A names its own ID in its street (so it is also a word match); B names A's ID; C does not.
  const index = memoryIndex([
    facility({ registry_id: ID, fac_name: 'ALPHA WORKS', fac_street: `${ID} DEPOT RD`, fac_state: 'IN', overall_score: 90 }),
    facility({ registry_id: '990000000302', fac_name: `BETA PLANT ${ID}`, fac_state: 'TX', overall_score: 20 }),
    facility({ registry_id: '990000000303', fac_name: 'GAMMA PLANT', fac_state: 'TX', overall_score: 10 }),
  ]);
  const search = FacilitySearch.open(index)!;
  const request = (over: Partial<SearchRequest> = {}): SearchRequest => ({
    words: [ID], state: null, naics: null, minScore: null, maxScore: null, activeEnforcement: null, sort: 'relevance', limit: 20, after: null, ...over,
  });
  const ids = (r: SearchRequest) => search.page(r).hits.map((h) => h.registry_id);

  it('comes first, once, ahead of a better-scoring word match, in both orders', () => {
    expect(ids(request())).toEqual([ID, '990000000302']);
    expect(ids(request({ sort: 'score' }))).toEqual([ID, '990000000302']);
    expect(search.page(request()).hits[0]!.key.value).toBe(ID_MATCH_KEY);
  });

  it('pages of one walk every facility once: the named one, then the word matches', () => {
    for (const sort of ['relevance', 'score'] as const) {
      const first = search.page(request({ sort, limit: 1 }));
      expect([first.hits.map((h) => h.registry_id), first.more]).toEqual([[ID], true]);
      const second = search.page(request({ sort, limit: 1, after: first.hits[0]!.key }));
      expect([second.hits.map((h) => h.registry_id), second.more]).toEqual([['990000000302'], false]);
    }
  });

  it('filters apply to it as to every match', () => {
    expect(ids(request({ state: 'TX' }))).toEqual(['990000000302']);
    expect(ids(request({ state: 'IN' }))).toEqual([ID]);
  });

  it('only a query of that one word names it', () => {
    expect(ids(request({ words: [ID, 'beta'] }))).toEqual(['990000000302']);
    expect(ids(request({ words: [ID.slice(0, 11)] })).sort()).toEqual([ID, '990000000302']);
    expect(search.page(request({ words: [ID.slice(0, 11)] })).hits.every((h) => h.key.value !== ID_MATCH_KEY)).toBe(true);
  });
});
