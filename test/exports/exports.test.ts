import { describe, expect, it } from 'bun:test';
import { check, getIssues } from '@placemarkio/check-geojson';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, makeWorld } from '../helpers';
import { SEARCH_ROWS } from '../search/fixtures';

const world = makeWorld({ rows: SEARCH_ROWS });
const { key } = await world.keyFor('enterprise');
const TRICKY = SEARCH_ROWS.find((r) => r.registry_id === '990000000106')!;

const AREA = '/api/v1/area?lat=41.08&lng=-81.52&radius_miles=5';
const SEARCH = '/api/v1/search?q=plat';
const portfolio = (accept: string | null, query = '') =>
  world.call(`/api/v1/portfolio${query}`, {
    key,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
    body: JSON.stringify({ registry_ids: ['990000000106', '990000000101', '990000000999'] }),
  });
// Portfolio items carry industry peers and score_change (null on a one-release index, one empty cell).
const PORTFOLIO_COLUMNS = ['registry_id', 'fac_name', 'overall_score', 'active_enforcement', 'peers.naics', 'peers.naics_digits', 'peers.peer_count', 'peers.percentile', 'peers.percentile_note', 'peers.median_score', 'peers.share_scoring_better', 'peers.share_tied', 'score_change', 'data_sufficient', 'location.lat', 'location.lng'];
const STATUS = (await json(await world.call('/api/v1/status'))).data.dataset;
const get = (path: string, accept: string | null = null) => world.call(path, { key, headers: accept ? { accept } : {} });

function csvRecords(text: string): Record<string, string>[] {
  return parse(text, { columns: true, record_delimiter: '\r\n', relax_quotes: false }) as Record<string, string>[];
}

describe('CSV form', () => {
  it.each([
    ['area', () => get(AREA, 'text/csv'), ['registry_id', 'fac_name', 'overall_score', 'active_enforcement', 'distance_miles', 'data_sufficient', 'location.lat', 'location.lng']],
    ['search', () => get(SEARCH, 'text/csv'), ['registry_id', 'fac_name', 'overall_score', 'active_enforcement', 'fac_street', 'fac_city', 'fac_state', 'fac_zip', 'data_sufficient', 'location.lat', 'location.lng']],
    ['portfolio', () => portfolio('text/csv'), PORTFOLIO_COLUMNS],
  ])('%s: parsed back by csv-parse, a name with a comma, quotes and a line break survives, columns are the item fields + location', async (_name, call, columns) => {
    const res = await call();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z]+-[A-Za-z0-9._-]*\.csv"$/);
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const rows = csvRecords(text);
    expect(Object.keys(rows[0]!)).toEqual(columns);
    const tricky = rows.find((r) => r.registry_id === TRICKY.registry_id)!;
    expect(tricky.fac_name).toBe('SMITH, JONES & "PARTNERS"\nPLATING');
    expect(Number(tricky['location.lat'])).toBe(TRICKY.lat!);
    expect(Number(tricky['location.lng'])).toBe(TRICKY.lng!);
    expect(tricky.active_enforcement).toBe('false');
  });

  it('has one row per facility of the JSON form, same values', async () => {
    const jsonBody = await json(await get(`${SEARCH}&sort=score`));
    const rows = csvRecords(await (await get(`${SEARCH}&sort=score&format=csv`)).text());
    expect(rows.map((r) => [r.registry_id, r.fac_name, Number(r.overall_score), r.fac_city])).toEqual(
      jsonBody.data.facilities.map((f: any) => [f.registry_id, f.fac_name, f.overall_score, f.fac_city]),
    );
  });

  it('an empty result is a header row only', async () => {
    const res = await get('/api/v1/search?q=zzzz&format=csv');
    expect(await res.text()).toBe('registry_id,fac_name,overall_score,active_enforcement,fac_street,fac_city,fac_state,fac_zip,data_sufficient,location.lat,location.lng\r\n');
  });
});

describe('GeoJSON form', () => {
  it.each([
    ['area', () => get(AREA, 'application/geo+json')],
    ['search', () => get(SEARCH, 'application/geo+json')],
    ['portfolio', () => portfolio('application/geo+json')],
  ])('%s: a valid RFC 7946 FeatureCollection with [lng, lat] points and the item fields as properties', async (_name, call) => {
    const res = await call();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/geo+json');
    expect(res.headers.get('content-disposition')).toMatch(/\.geojson"$/);
    const text = await res.text();
    expect(getIssues(text)).toEqual([]);
    const fc = check(text) as any;
    const f = fc.features.find((x: any) => x.properties.registry_id === TRICKY.registry_id);
    expect(f.geometry.coordinates).toEqual([TRICKY.lng, TRICKY.lat]);
    expect(f.properties.fac_name).toBe(TRICKY.fac_name);
    expect(f.properties.location).toBeUndefined();
  });

  it('is read by GDAL ogrinfo with the right feature count and field values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fcs-geojson-'));
    try {
      const file = join(dir, 'search.geojson');
      writeFileSync(file, await (await get(`${SEARCH}&format=geojson&sort=score`)).text());
      const out = Bun.spawnSync(['ogrinfo', '-ro', '-al', '-so', file]);
      const summary = out.stdout.toString();
      expect(out.exitCode).toBe(0);
      expect(summary).toContain('Feature Count: 2');
      expect(summary).toMatch(/Geometry: Point/);
      const detail = Bun.spawnSync(['ogrinfo', '-ro', '-al', '-q', '-where', "registry_id = '990000000101'", file]).stdout.toString();
      expect(detail).toContain('fac_name (String) = ACME PLATING INC');
      expect(detail).toContain('POINT (-85.99 41.67)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('provenance of a file', () => {
  it.each([
    ['area CSV', () => get(AREA, 'text/csv'), 'csv'],
    ['search GeoJSON', () => get(SEARCH, 'application/geo+json'), 'geojson'],
    ['portfolio CSV', () => portfolio('text/csv'), 'csv'],
    ['portfolio GeoJSON', () => portfolio('application/geo+json'), 'geojson'],
  ])('%s names its as-of date, whether it is fictitious and the score method in headers, and the date in its file name', async (_name, call, ext) => {
    const res = await call();
    expect(res.headers.get('x-dataset-as-of')).toBe(STATUS.as_of);
    expect(res.headers.get('x-dataset-fictitious')).toBe(String(STATUS.fictitious));
    expect(res.headers.get('x-score-method')).toBe(STATUS.score_version);
    expect(res.headers.get('content-disposition')).toEndWith(`_as-of-${STATUS.as_of}.${ext}"`);
  });

  it('a GeoJSON file carries the dataset as its top-level metadata member', async () => {
    const fc = JSON.parse(await (await get(AREA, 'application/geo+json')).text());
    expect(fc.metadata).toEqual({ name: STATUS.dataset_name, as_of: STATUS.as_of, fictitious: STATUS.fictitious, score_method: STATUS.score_version });
  });

  it.each([
    ['facility', () => get(`/api/v1/facility/${TRICKY.registry_id}`)],
    ['history', () => get(`/api/v1/facility/${TRICKY.registry_id}/history`)],
    ['area', () => get(AREA)],
    ['search', () => get(SEARCH)],
    ['portfolio', () => portfolio(null)],
  ])('a %s JSON answer names its dataset in meta.dataset', async (_name, call) => {
    const body = await json(await call());
    expect(body.meta.dataset).toEqual({ name: STATUS.dataset_name, as_of: STATUS.as_of, fictitious: STATUS.fictitious, score_method: STATUS.score_version });
  });
});

describe('choosing the form', () => {
  it.each([
    [null, '', 'application/json'],
    ['*/*', '', 'application/json'],
    ['application/xml', '', 'application/json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', '', 'application/json'],
    ['text/csv', '', 'text/csv'],
    ['text/*', '', 'text/csv'],
    ['application/geo+json', '', 'application/geo+json'],
    ['application/json;q=0.5, text/csv;q=0.9', '', 'text/csv'],
    ['text/csv;q=0, */*', '', 'application/json'],
    ['application/geo+json', '&format=csv', 'text/csv'],
    ['text/csv', '&format=json', 'application/json'],
    [null, '&format=GeoJSON', 'application/geo+json'],
  ])('Accept %j with %j answers %s', async (accept, query, type) => {
    const res = await get(`${SEARCH}${query}`, accept);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toStartWith(type);
  });

  it.each([AREA, SEARCH])('an unknown format on %s is 422 VALIDATION_ERROR naming format, as JSON, not counted', async (path) => {
    const { key: own } = await world.keyFor('starter');
    const res = await world.call(`${path}&format=xlsx`, { key: own, headers: { accept: 'text/csv' } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toStartWith('application/json');
    expect((await json(res)).error.message).toContain('format must be json, csv or geojson');
    const ok = await world.call(path, { key: own });
    expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(10_000 - 1));
  });

  it('errors stay JSON envelopes when CSV was asked for (a bad radius is 422 JSON)', async () => {
    const res = await get('/api/v1/area?lat=41&lng=-81&radius_miles=99&format=csv', 'text/csv');
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toStartWith('application/json');
    expect((await json(res)).error.code).toBe('VALIDATION_ERROR');
  });

  it('a Free key asking for CSV gets the JSON 403', async () => {
    const { key: free } = await world.keyFor('free');
    const res = await world.call(`${SEARCH}&format=csv`, { key: free });
    expect(res.status).toBe(403);
    expect((await json(res)).error.code).toBe('TIER_RESTRICTED');
  });

  it('each form counts as one call and carries the quota headers', async () => {
    const { key: own } = await world.keyFor('starter');
    let expected = 10_000;
    for (const [path, accept] of [[SEARCH, 'text/csv'], [SEARCH, 'application/geo+json'], [AREA, 'text/csv'], [`${AREA}&format=geojson`, null], [SEARCH, null]] as const) {
      const res = await world.call(path, { key: own, headers: accept ? { accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10000');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(--expected));
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it.each(['csv', 'geojson'])('an area %s cut at its limit says so: X-Total-Count of every match and X-Truncated: true', async (format) => {
    const ELKHART = '/api/v1/area?lat=41.67&lng=-85.99&radius_miles=20';
    const all = (await json(await get(`${ELKHART}&limit=500`))).data;
    expect(all.total).toBe(3);
    const cut = await get(`${ELKHART}&limit=2&format=${format}`);
    expect(cut.status).toBe(200);
    expect(cut.headers.get('x-total-count')).toBe(String(all.total));
    expect(cut.headers.get('x-truncated')).toBe('true');
    const text = await cut.text();
    expect(format === 'csv' ? csvRecords(text).length : JSON.parse(text).features.length).toBe(2);
    const whole = await get(`${ELKHART}&limit=3&format=${format}`);
    expect([whole.headers.get('x-total-count'), whole.headers.get('x-truncated')]).toEqual(['3', 'false']);
    // Filters count too: the total is of the facilities the query asks for, not of the circle.
    const active = await get(`${ELKHART}&limit=1&active_enforcement=false&format=${format}`);
    expect([active.headers.get('x-total-count'), active.headers.get('x-truncated')]).toEqual(['2', 'true']);
  });

  it('portfolio exports say how many IDs were not found', async () => {
    const res = await portfolio(null, '?format=csv');
    expect(res.headers.get('x-not-found-count')).toBe('1');
    expect(csvRecords(await res.text()).map((r) => r.registry_id)).toEqual(['990000000106', '990000000101']);
  });

  it('a search export that has a next page links to it', async () => {
    const res = await get('/api/v1/search?q=acme&limit=1&format=csv');
    const link = res.headers.get('link')!;
    expect(link).toMatch(/^<\/api\/v1\/search\?q=acme&limit=1&format=csv&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const next = await get(link.slice(1, link.indexOf('>')));
    expect(next.status).toBe(200);
    expect(csvRecords(await next.text())).toHaveLength(1);
  });
});
