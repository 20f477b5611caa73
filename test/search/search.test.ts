import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld, memoryIndex } from '../helpers';
import { DocidSpace } from '../../src/index/search-tables/docids';
import { FacilitySearch } from '../../src/search/facility-search';
import { parseSearchQuery } from '../../src/search/query';
import { RIVER_ROWS, SEARCH_ROWS } from './fixtures';
import { connectionOf } from '../../src/index/facility-index';

const world = makeWorld({ rows: [...SEARCH_ROWS, ...RIVER_ROWS] });
const { key } = await world.keyFor('starter');

async function search(query: string) {
  const res = await world.call(`/api/v1/search?${query}`, { key });
  return { res, body: await json(res) };
}
const ids = (body: any) => body.data.facilities.map((f: { registry_id: string }) => f.registry_id);

describe('GET /api/v1/search matching', () => {
  it('matches every word as a prefix of a word in the name, street, city or ZIP: "acme plat elkh" finds ACME PLATING INC in ELKHART', async () => {
    const { res, body } = await search('q=acme%20plat%20elkh');
    expect(res.status).toBe(200);
    expect(body.data).toEqual({
      facilities: [
        { registry_id: '990000000101', fac_name: 'ACME PLATING INC', overall_score: 62, active_enforcement: false, fac_street: '2100 W LUSHER AVE', fac_city: 'ELKHART', fac_state: 'IN', fac_zip: '46517', data_sufficient: true },
      ],
      total: 1,
      total_capped: false,
      next_cursor: null,
    });
  });

  it('one prefix word finds every facility with a word starting so, in any column', async () => {
    expect(ids((await search('q=elkhart')).body).sort()).toEqual(['990000000101', '990000000103', '990000000104']);
    expect(ids((await search('q=4651')).body).sort()).toEqual(['990000000101', '990000000103']);
    expect(ids((await search('q=lusher')).body)).toEqual(['990000000101']);
  });

  it('is case-insensitive and ignores punctuation between words', async () => {
    expect(ids((await search('q=AcMe,%20(plat)')).body)).toEqual(['990000000101']);
  });

  it('ranks a name match above a match in another column: "elkhart" puts ELKHART TRUCK WASH first', async () => {
    expect(ids((await search('q=elkhart')).body)[0]).toBe('990000000104');
  });

  it('sort=score orders worst compliance first, ties by registry_id', async () => {
    const { body } = await search('q=acme&sort=score');
    expect(body.data.facilities.map((f: any) => [f.registry_id, f.overall_score])).toEqual([
      ['990000000103', 35],
      ['990000000101', 62],
      ['990000000102', 88],
    ]);
  });

  it('a word that matches nothing gives an empty page, not an error', async () => {
    const { res, body } = await search('q=acme%20zzz');
    expect(res.status).toBe(200);
    expect(body.data).toEqual({ facilities: [], total: 0, total_capped: false, next_cursor: null });
  });
});

describe('GET /api/v1/search filters', () => {
  it.each([
    ['state=in', ['990000000101', '990000000102', '990000000103']],
    ['naics=3328', ['990000000101']],
    ['min_score=60', ['990000000101', '990000000102']],
    ['max_score=40', ['990000000103']],
    ['min_score=60&max_score=70', ['990000000101']],
    ['active_enforcement=true', ['990000000103']],
    ['active_enforcement=false', ['990000000101', '990000000102']],
  ])('q=acme&%s keeps only the facilities that pass', async (filter, expected) => {
    expect(ids((await search(`q=acme&${filter}`)).body).sort()).toEqual(expected);
  });
});

describe('GET /api/v1/search pages', () => {
  async function allPages(query: string, limit: number) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const { res, body } = await search(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...ids(body));
      cursor = body.data.next_cursor;
      if (!cursor) break;
    }
    return seen;
  }

  it.each(['sort=relevance', 'sort=score'])('walking every page (%s) returns each match exactly once, in the one-page order', async (sort) => {
    const { body } = await search(`q=riv&${sort}&limit=100`);
    const onePage = ids(body);
    expect(onePage.length).toBe(26);
    expect(new Set(onePage).size).toBe(26);
    for (const limit of [1, 2, 7]) expect(await allPages(`q=riv&${sort}`, limit)).toEqual(onePage);
  });

  it('the last page has next_cursor null; a full page with more to come has one', async () => {
    const first = (await search('q=acme&limit=2')).body;
    expect(typeof first.data.next_cursor).toBe('string');
    const second = (await search(`q=acme&limit=2&cursor=${first.data.next_cursor}`)).body;
    expect(second.data.next_cursor).toBeNull();
  });

  it('total counts every facility the search finds, on each page alike, not the rows of one page', async () => {
    for (const q of ['q=acme&limit=2', 'q=riv&limit=3', 'q=riv&limit=3&sort=score', 'q=acme&state=in&min_score=60&limit=1']) {
      const { body } = await search(q);
      const all = ids((await search(q.replace(/limit=\d+/, 'limit=100'))).body);
      expect([q, body.data.total, body.data.total_capped]).toEqual([q, all.length, false]);
      expect(body.data.facilities.length).toBeLessThan(all.length);
    }
    const first = (await search('q=acme&limit=2')).body;
    expect((await search(`q=acme&limit=2&cursor=${first.data.next_cursor}`)).body.data.total).toBe(3);
  });

  it('past the counting cap, total is the cap and total_capped says it is a lower bound', () => {
    const s = FacilitySearch.open(memoryIndex([...SEARCH_ROWS, ...RIVER_ROWS]))!;
    const r = parseSearchQuery(new URLSearchParams('q=riv&limit=3'), s.fingerprint);
    expect(s.count(r, 100)).toEqual({ total: 26, capped: false });
    expect(s.count(r, 10)).toEqual({ total: 10, capped: true });
  });

  it('an edited cursor, or one used with another query or sort, is 422 VALIDATION_ERROR naming cursor, and is not counted', async () => {
    const { key: own } = await world.keyFor('starter');
    const first = await json(await world.call('/api/v1/search?q=acme&limit=1', { key: own }));
    const cursor: string = first.data.next_cursor;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify([decoded[0], '990000000199', decoded[2]])).toString('base64url');
    for (const q of [`q=acme&cursor=${edited}`, `q=acmee&cursor=${cursor}`, `q=acme&sort=score&cursor=${cursor}`, 'q=acme&cursor=not-a-cursor', 'q=acme&cursor=%22%27%3B']) {
      const res = await world.call(`/api/v1/search?${q}`, { key: own });
      expect([q, res.status]).toEqual([q, 422]);
      const body = await json(res);
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(body.error.message).toContain('cursor');
    }
    const res = await world.call('/api/v1/search?q=acme', { key: own });
    expect(res.headers.get('x-ratelimit-remaining')).toBe(String(10_000 - 2));
  });
});

describe('GET /api/v1/search access and input', () => {
  it('a Free key gets 403 TIER_RESTRICTED saying the endpoint requires a Starter plan or above', async () => {
    const { key: free } = await world.keyFor('free');
    const res = await world.call('/api/v1/search?q=acme', { key: free });
    expect(res.status).toBe(403);
    expect((await json(res)).error).toEqual({ code: 'TIER_RESTRICTED', message: 'The search endpoint requires a Starter plan or above', status: 403 });
  });

  it('no key is 401 UNAUTHENTICATED', async () => {
    expect((await world.call('/api/v1/search?q=acme')).status).toBe(401);
  });

  it.each([
    ['', 'q is required'],
    ['q=', 'q is empty'],
    ['q=%20%20', 'q must contain at least one letter or digit'],
    ['q=*%22()', 'q must contain at least one letter or digit'],
    [`q=${'a'.repeat(500)}`, 'q must be at most 200 characters'],
    [`q=${Array.from({ length: 13 }, () => 'a').join('+')}`, 'q must have at most 12 words'],
    ['q=acme&q=plat', 'q was given 2 times'],
    ['q=acme&state=XX', 'state must be'],
    ['q=acme&naics=3a', 'naics must be'],
    ['q=acme&min_score=101', 'min_score must be'],
    ['q=acme&min_score=70&max_score=60', 'min_score (70) must not be above max_score (60)'],
    ['q=acme&active_enforcement=yes', 'active_enforcement must be'],
    ['q=acme&sort=name', 'sort must be'],
    ['q=acme&limit=101', 'limit must be'],
    ['q=acme&limit=0', 'limit must be'],
    ['q=acme&format=xml', 'format must be json, csv or geojson'],
  ])('%s is 422 VALIDATION_ERROR (%s)', async (query, message) => {
    const res = await world.call(`/api/v1/search?${query}`, { key });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toContain(message);
  });

  it.each([
    ['"acme', ['990000000101', '990000000102', '990000000103']],
    ['acme AND plat', []],
    ['NEAR AND FAR OR NOT', ['990000000107']],
    ['near(acme', []],
    ['acme*', ['990000000101', '990000000102', '990000000103']],
    ['name:acme', []],
    ['-acme +plat ^elk', ['990000000101']],
    ["o'brien", []],
  ])('FTS syntax in q is plain text: %j', async (q, expected) => {
    const { res, body } = await search(`q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(ids(body).sort()).toEqual(expected);
  });
});

describe('an index whose search tables are missing', () => {
  it('serves everything else, and answers a search with 503 SERVICE_UNAVAILABLE saying to rebuild', async () => {
    const index = memoryIndex(SEARCH_ROWS);
    connectionOf(index).exec('DROP TABLE facility_search; DROP TABLE search_doc');
    const old = makeWorld({ deps: { index } });
    const { key: own } = await old.keyFor('starter');
    const res = await old.call('/api/v1/search?q=acme', { key: own });
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toContain('rebuild it with `ingest`');
    expect((await old.call('/api/v1/facility/990000000101', { key: own })).status).toBe(200);
    expect((await old.call('/api/v1/demo/facility?address=100%20Main%2C%20Springfield%20IL')).status).toBe(404);
  });
});

describe('search docids (score * 2^32 + rank) map to places in the score order', () => {
  const many = [...SEARCH_ROWS, ...RIVER_ROWS, ...Array.from({ length: 200 }, (_, i) => facility({ registry_id: `9900000003${String(i).padStart(2, '0')}`, fac_name: `RIVERBEND WORKS ${i}`, fac_city: i % 2 ? 'RIVERSIDE' : 'ELKHART', overall_score: 30 + (i % 7) * 10 }))];

  it("every docid's place is its row number in docid order, and the place gives the docid back", () => {
    const index = memoryIndex(many);
    const rows = connectionOf(index).query<{ docid: number; place: number }, []>('SELECT docid, row_number() OVER (ORDER BY docid) AS place FROM search_doc').all();
    const space = DocidSpace.of(connectionOf(index));
    expect(space.total).toBe(many.length);
    for (const { docid, place } of rows) expect([docid, space.position(docid), space.docidAt(place)]).toEqual([docid, place, docid]);
    // more candidates than the sample of 64, so the estimate comes from the last sampled candidate's place
    expect(FacilitySearch.open(index)!.plan(['riv']).words[0]!.docs).toBeGreaterThan(64);
  });
});
