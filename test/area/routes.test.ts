import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { TIERS } from '../../src/tiers';
import { bruteForceRadius } from '../support/brute-force';
import { EARTH_RADIUS_MILES } from '../../src/area/geo';
import { AreaResponse } from '../../src/area/model';
import type { FacilityRow } from '../../src/index/model';
import { DEFAULT_ROWS, facility, json, makeWorld } from '../helpers';
import { PLACES, destination } from './fixtures';

const H = PLACES.houston;
/** A facility `miles` from Houston's centre along `bearing`. */
const at = (id: string, bearing: number, miles: number, o: Partial<FacilityRow> = {}) =>
  facility({ registry_id: id, fac_state: 'TX', ...destination(H.lat, H.lng, bearing, miles, EARTH_RADIUS_MILES), ...o });

const ROWS: FacilityRow[] = [
  ...DEFAULT_ROWS.slice(0, 2), // Springfield, IL: 700 miles away
  at('990000000100', 0, 0, { overall_score: 87 }),
  at('990000000101', 180, 0.5, { overall_score: 70, fac_state: 'LA' }),
  at('990000000102', 0, 1, { overall_score: 100 }),
  at('990000000114', 270, 1.5, { overall_score: 50 }),
  at('990000000109', 270, 1.5, { overall_score: 50 }), // same spot as ...114
  at('990000000103', 90, 2, { overall_score: 30, active_enforcement: true }),
  at('990000000104', 45, 3, { overall_score: 30, active_enforcement: true }),
  at('990000000105', 10, 24.999, { overall_score: 5 }),
  at('990000000106', 10, 25.001, { overall_score: 1 }),
];

const world = makeWorld({ rows: ROWS });
const keys = Object.fromEntries(await Promise.all(TIERS.map(async (t) => [t, (await world.keyFor(t, { monthlyLimit: 1_000 })).key] as const)));
const base = `lat=${H.lat}&lng=${H.lng}`;
const area = (qs: string, key: string | null = keys.starter!) => world.call(`/api/v1/area?${qs}`, { key: key ?? undefined });
const ids = async (qs: string) => (await json(await area(qs))).data.facilities.map((f: { registry_id: string }) => f.registry_id);

describe('GET /api/v1/area: who may call it', () => {
  it.each([
    ['free', 403],
    ['starter', 200],
    ['platform', 200],
    ['enterprise', 200],
  ] as const)('a %s key gets %i', async (tier, status) => {
    const res = await area(`${base}&radius_miles=5`, keys[tier]);
    expect(res.status).toBe(status);
    if (status === 403) {
      const body = await json(res);
      expect(body.error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The area endpoint requires a Starter plan or above' });
    }
  });

  it('without a key it is 401, even with bad parameters', async () => {
    const res = await area('lat=abc', null);
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
  });

  it('a Free key learns nothing about parameters: 403 before validation', async () => {
    expect((await area('lat=abc', keys.free)).status).toBe(403);
  });
});

describe('GET /api/v1/area: what comes back', () => {
  it('nearest first with exact ties broken by registry_id, distances to 3 decimals, centre and radius echoed', async () => {
    const res = await area(`${base}&radius_miles=25`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Value.Check(AreaResponse, body)).toBe(true);
    expect(body.data.center).toEqual({ lat: H.lat, lng: H.lng });
    expect(body.data.radius_miles).toBe(25);
    expect(body.data.facilities.map((f: any) => [f.registry_id, f.distance_miles])).toEqual([
      ['990000000100', 0],
      ['990000000101', 0.5],
      ['990000000102', 1],
      ['990000000109', 1.5],
      ['990000000114', 1.5],
      ['990000000103', 2],
      ['990000000104', 3],
      ['990000000105', 24.999],
    ]);
    expect(body.data.total).toBe(8);
    expect(body.data.facilities[5]).toEqual({ registry_id: '990000000103', fac_name: 'TEST FACILITY 990000000103', overall_score: 30, active_enforcement: true, distance_miles: 2, data_sufficient: true });
  });

  it('sort=score puts the worst compliance (lowest overall_score) first, then the nearest', async () => {
    expect(await ids(`${base}&radius_miles=10&sort=score`)).toEqual(['990000000103', '990000000104', '990000000109', '990000000114', '990000000101', '990000000100', '990000000102']);
  });

  it.each([
    ['state=LA&limit=1', ['990000000101']],
    ['state=la&limit=1', ['990000000101']],
    ['active_enforcement=true&limit=1', ['990000000103']],
    ['active_enforcement=false&sort=score&limit=2', ['990000000109', '990000000114']],
    ['state=TX&active_enforcement=true&sort=score', ['990000000103', '990000000104']],
    ['state=IL', []],
  ])('filters apply before the limit: %s', async (qs, expected) => {
    expect(await ids(`${base}&radius_miles=10&${qs}`)).toEqual(expected);
  });

  it('total counts the facilities returned, so it is at most the limit', async () => {
    const body = await json(await area(`${base}&radius_miles=10&limit=3`));
    expect(body.data.facilities).toHaveLength(3);
    expect(body.data.total).toBe(3);
  });

  it('a radius with nobody inside is 200 with an empty list', async () => {
    const body = await json(await area('lat=0&lng=0&radius_miles=25'));
    expect(body.data).toEqual({ center: { lat: 0, lng: 0 }, radius_miles: 25, facilities: [], total: 0 });
  });

  it.each([
    ['distance', 1],
    ['distance', 5],
    ['score', 25],
    ['score', 2.5],
  ])('answers like a brute-force scan (sort=%s, %f miles)', async (sort, radius) => {
    const expected = bruteForceRadius(ROWS, { lat: H.lat, lng: H.lng, radiusMiles: radius, limit: 100, sort: sort as 'distance' | 'score', state: null, activeEnforcement: null });
    expect(await ids(`${base}&radius_miles=${radius}&sort=${sort}`)).toEqual(expected.map((e) => e.row.registry_id));
  });
});

describe('GET /api/v1/area: bad parameters are 422 VALIDATION_ERROR naming the parameter, and are not counted', () => {
  it.each([
    ['lat missing', `lng=${H.lng}&radius_miles=5`, 'lat'],
    ['lng missing', `lat=${H.lat}&radius_miles=5`, 'lng'],
    ['radius_miles missing', base, 'radius_miles'],
    ['lat not a number', `lat=abc&lng=1&radius_miles=5`, 'lat'],
    ['lat empty', `lat=&lng=1&radius_miles=5`, 'lat'],
    ['lat NaN', `lat=NaN&lng=1&radius_miles=5`, 'lat'],
    ['lat Infinity', `lat=Infinity&lng=1&radius_miles=5`, 'lat'],
    ['lat in hex', `lat=0x10&lng=1&radius_miles=5`, 'lat'],
    ['lat blank', `lat=%20&lng=1&radius_miles=5`, 'lat'],
    ['lat above 90', `lat=90.0001&lng=1&radius_miles=5`, 'lat'],
    ['lat below -90', `lat=-91&lng=1&radius_miles=5`, 'lat'],
    ['lng above 180', `lat=1&lng=180.5&radius_miles=5`, 'lng'],
    ['lng below -180', `lat=1&lng=-181&radius_miles=5`, 'lng'],
    ['lat given twice', `lat=1&lat=2&lng=1&radius_miles=5`, 'lat'],
    ['radius_miles above 25', `${base}&radius_miles=25.0001`, 'radius_miles'],
    ['radius_miles 0', `${base}&radius_miles=0`, 'radius_miles'],
    ['radius_miles negative', `${base}&radius_miles=-1`, 'radius_miles'],
    ['limit 0', `${base}&radius_miles=5&limit=0`, 'limit'],
    ['limit 501', `${base}&radius_miles=5&limit=501`, 'limit'],
    ['limit fractional', `${base}&radius_miles=5&limit=1.5`, 'limit'],
    ['limit empty', `${base}&radius_miles=5&limit=`, 'limit'],
    ['sort unknown', `${base}&radius_miles=5&sort=name`, 'sort'],
    ['state of 3 letters', `${base}&radius_miles=5&state=TEX`, 'state'],
    ['state unknown', `${base}&radius_miles=5&state=ZZ`, 'state'],
    ['active_enforcement 1', `${base}&radius_miles=5&active_enforcement=1`, 'active_enforcement'],
    ['active_enforcement yes', `${base}&radius_miles=5&active_enforcement=yes`, 'active_enforcement'],
  ])('%s', async (_name, qs, param) => {
    const { key } = await world.keyFor('starter', { monthlyLimit: 5 });
    const res = await area(qs, key);
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message.startsWith(`${param} `)).toBe(true);
    const ok = await area(`${base}&radius_miles=1`, key);
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it('names every bad parameter at once', async () => {
    const body = await json(await area('lat=91&lng=abc&radius_miles=30&limit=0'));
    for (const p of ['lat', 'lng', 'radius_miles', 'limit']) expect(body.error.message).toContain(`${p} `);
  });

  it.each([
    ['the largest radius, 25 miles', `${base}&radius_miles=25`],
    ['the poles and the antimeridian', 'lat=90&lng=180&radius_miles=1'],
    ['-90 and -180', 'lat=-90&lng=-180&radius_miles=1'],
    ['exponent notation and a leading +', 'lat=%2B2.97604e1&lng=-95.3698&radius_miles=1e1&limit=500'],
    ['parameters the route does not define (ignored)', `${base}&radius_miles=5&foo=bar`],
  ])('accepts %s', async (_name, qs) => {
    expect((await area(qs)).status).toBe(200);
  });
});

describe('GET /api/v1/area: counting', () => {
  it('each search counts as one call, whatever it returns', async () => {
    const { key } = await world.keyFor('starter', { monthlyLimit: 10 });
    const remaining = async (qs: string) => (await area(qs, key)).headers.get('x-ratelimit-remaining');
    expect(await remaining(`${base}&radius_miles=25&limit=500`)).toBe('9');
    expect(await remaining('lat=0&lng=0&radius_miles=1')).toBe('8');
  });
});

describe('GET /api/v1/area: limit', () => {
  it('defaults to 100 and goes up to 500', async () => {
    const many = Array.from({ length: 520 }, (_, i) => at(String(980000000000 + i), (i * 7) % 360, 0.01 + i / 100));
    const w = makeWorld({ rows: many });
    const { key } = await w.keyFor('starter');
    const count = async (qs: string) => (await json(await w.call(`/api/v1/area?${base}&radius_miles=25${qs}`, { key }))).data.total;
    expect(await count('')).toBe(100);
    expect(await count('&limit=500')).toBe(500);
    expect(await count('&limit=1')).toBe(1);
  });
});
