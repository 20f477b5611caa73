import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';
import { SEARCH_ROWS } from './fixtures';

const world = makeWorld({ rows: SEARCH_ROWS });
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
      facilities: [{ registry_id: '990000000101', fac_name: 'ACME PLATING INC', overall_score: 62, active_enforcement: false, fac_city: 'ELKHART', fac_state: 'IN' }],
      total: 1,
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
    expect(body.data).toEqual({ facilities: [], total: 0, next_cursor: null });
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
