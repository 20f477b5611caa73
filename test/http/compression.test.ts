import { describe, expect, it } from 'bun:test';
import { acceptsGzip, withVary } from '../../src/api/http/compression';
import { DEFAULT_ROWS, makeWorld } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from '../site-report/fixtures';

// 300 facilities around one point: area, portfolio, search and site report answers of tens of KB
const HOUSTON = { lat: 29.7604, lng: -95.3698 };
const generated = scatter(rng(11), HOUSTON, 300, 1.5, 990_400_000_000).map((g) => g.row);
const rows = [...DEFAULT_ROWS, ...generated];
const ids = generated.map((r) => r.registry_id);
const world = makeWorld({ rows });
const { key } = await world.keyFor('enterprise', { monthlyLimit: 1_000_000 });

type Ask = { name: string; path: string; method?: string; body?: unknown };
const JSON_TYPE = { 'content-type': 'application/json' };

function ask(a: Ask, headers: Record<string, string>, w = world, k = key): Promise<Response> {
  return w.call(a.path, {
    method: a.method ?? 'GET',
    key: k,
    headers: { ...(a.body === undefined ? {} : JSON_TYPE), ...headers },
    body: a.body === undefined ? undefined : JSON.stringify(a.body),
  });
}

const area = (format: string, limit = 500) => `/api/v1/area?lat=${HOUSTON.lat}&lng=${HOUSTON.lng}&radius_miles=5&limit=${limit}&format=${format}`;
const watchlist = ((await (await ask({ name: '', path: '/api/v1/watchlists', method: 'POST', body: { name: 'all', registry_ids: ids } }, {})).json()) as any).data;

/** Every route whose answer can run large, in each of its forms. */
const COMPRESSIBLE: Ask[] = [
  { name: 'area JSON', path: area('json') },
  { name: 'area CSV', path: area('csv') },
  { name: 'area GeoJSON', path: area('geojson') },
  { name: 'search JSON', path: '/api/v1/search?q=site%20fixture&limit=100' },
  { name: 'search CSV', path: '/api/v1/search?q=site%20fixture&limit=100&format=csv' },
  { name: 'portfolio JSON', path: '/api/v1/portfolio', method: 'POST', body: { registry_ids: ids } },
  { name: 'portfolio CSV', path: '/api/v1/portfolio?format=csv', method: 'POST', body: { registry_ids: ids } },
  { name: 'site report JSON', path: '/api/v1/site-report', method: 'POST', body: HOUSTON },
  { name: 'site report CSV', path: '/api/v1/site-report?format=csv', method: 'POST', body: HOUSTON },
  { name: 'site report GeoJSON', path: '/api/v1/site-report?format=geojson', method: 'POST', body: HOUSTON },
  { name: 'watchlist with its IDs', path: `/api/v1/watchlists/${watchlist.id}` },
  { name: 'watchlist IDs page', path: `/api/v1/watchlists/${watchlist.id}/registry_ids?limit=300` },
];

/** The answer without what differs between two calls (meta: request id, time taken). */
function sameData(text: string, type: string): unknown {
  if (type.startsWith('text/csv')) return text;
  const body = JSON.parse(text);
  return body.meta ? body.data : body;
}

describe('gzip: a large JSON, CSV or GeoJSON answer to a client that accepts gzip', () => {
  it.each(COMPRESSIBLE.map((a) => [a.name, a] as const))('%s: compressed, and the same data once decompressed', async (_name, a) => {
    const plain = await ask(a, { 'accept-encoding': 'identity' });
    const zipped = await ask(a, { 'accept-encoding': 'gzip, deflate, br' });
    expect([plain.status, zipped.status]).toEqual([a.method === 'POST' && a.path.includes('watchlists') ? 201 : 200, plain.status]);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const plainText = await plain.text();
    const zippedBytes = new Uint8Array(await zipped.arrayBuffer());
    expect(Buffer.byteLength(plainText)).toBeGreaterThanOrEqual(1024);
    expect(zippedBytes.length).toBeLessThan(Buffer.byteLength(plainText) / 2);
    const type = plain.headers.get('content-type')!;
    expect(zipped.headers.get('content-type')).toBe(type);
    expect(sameData(new TextDecoder().decode(Bun.gunzipSync(zippedBytes)), type)).toEqual(sameData(plainText, type));
    for (const r of [plain, zipped]) expect(r.headers.get('vary')).toContain('Accept-Encoding');
    // the other headers go with the compressed form
    expect(zipped.headers.get('x-request-id')).toMatch(/^req_/);
    expect(zipped.headers.get('content-disposition')).toBe(plain.headers.get('content-disposition'));
  });

  it('a small answer (under the 1 KiB threshold) is sent as is, still with Vary: Accept-Encoding', async () => {
    const res = await ask({ name: 'tiny area', path: `/api/v1/area?lat=0&lng=-30&radius_miles=1` }, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    expect(((await res.json()) as any).data.total).toBe(0);
  });

  it('an error envelope is small: sent as is, and whole', async () => {
    const res = await ask({ name: 'bad area', path: '/api/v1/area?lat=999&lng=0&radius_miles=1' }, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(((await res.json()) as any).error.code).toBe('VALIDATION_ERROR');
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['identity', { 'accept-encoding': 'identity' }],
    ['gzip;q=0', { 'accept-encoding': 'gzip;q=0, identity' }],
    ['br only', { 'accept-encoding': 'br' }],
  ] as const)('a client sending %s gets the answer uncompressed, with Vary', async (_name, headers) => {
    const res = await ask({ name: 'area', path: area('json') }, headers);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
    expect(((await res.json()) as any).data.total).toBeGreaterThan(100);
  });

  it('the threshold is a setting: above an answer\'s size, nothing is compressed', async () => {
    const big = makeWorld({ rows, config: { compressMinBytes: 10_000_000 } });
    const k = (await big.keyFor('enterprise')).key;
    const res = await ask({ name: 'area', path: area('json') }, { 'accept-encoding': 'gzip' }, big, k);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toContain('Accept-Encoding');
  });

  it('a facility lookup is never compressed, even with a threshold of 0, and carries no Vary: Accept-Encoding', async () => {
    const zero = makeWorld({ rows, config: { compressMinBytes: 0 } });
    const k = (await zero.keyFor('enterprise')).key;
    const res = await ask({ name: 'lookup', path: `/api/v1/facility/${ids[0]}` }, { 'accept-encoding': 'gzip' }, zero, k);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toContain('Accept-Encoding');
    expect(((await res.json()) as any).data.registry_id).toBe(ids[0]);
  });

  it('a PDF is not compressed again', async () => {
    const res = await ask({ name: 'site PDF', path: '/api/v1/site-report?format=pdf', method: 'POST', body: HOUSTON }, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).subarray(0, 5))).toBe('%PDF-');
  });
});

describe('acceptsGzip reads Accept-Encoding as RFC 9110 says', () => {
  it.each([
    [null, false],
    ['', false],
    ['identity', false],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['deflate, gzip;q=0.5', true],
    ['gzip;q=0', false],
    ['gzip; q=0.000', false],
    ['*', true],
    ['*;q=0', false],
    ['br, *', true],
    ['gzip;q=0, *', false],
  ] as const)('%p: %p', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe('withVary adds a name once', () => {
  it.each([
    [undefined, 'Accept-Encoding'],
    ['Origin', 'Origin, Accept-Encoding'],
    ['Accept, accept-encoding', 'Accept, accept-encoding'],
    ['*', '*'],
  ] as const)('%p -> %p', (vary, expected) => {
    expect(withVary(vary, 'Accept-Encoding')).toBe(expected);
  });
});
