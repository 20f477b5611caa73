import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { PLAIN_BODY_MAX } from '../../src/wire/late-body';
import { cli, ROOT, startServer, type Service } from '../support/process';
import { tempDir } from '../support/temp-dir';

// How an answer is written to the socket depends on its size (src/wire/late-body.ts), and only a
// real server shows the framing: one `serve` of the bundled sample, allowing one browser origin.
const SAMPLE = join(ROOT, 'data', 'sample.sqlite');
const ORIGIN = 'https://app.example.test';
const db = new Database(SAMPLE, { readonly: true });
const dense = db.query('SELECT avg(lat) AS lat, avg(lng) AS lng FROM facility WHERE lat IS NOT NULL GROUP BY round(lat, 1), round(lng, 1) ORDER BY count(*) DESC, 1, 2 LIMIT 1').get() as { lat: number; lng: number };
const many = (db.query('SELECT registry_id FROM facility ORDER BY registry_id LIMIT 2000').all() as { registry_id: string }[]).map((r) => r.registry_id);
const ids = many.slice(0, 300);
db.close();

let server: Service;
let key: string;

beforeAll(async () => {
  const stateDir = tempDir('large-answers');
  ({ key } = JSON.parse(cli(['keys', 'create', '--tier', 'enterprise', '--json', '--state-dir', stateDir]).stdout));
  server = await startServer(['--index', SAMPLE, '--state-dir', stateDir, '--cors-origins', ORIGIN]);
});
afterAll(async () => {
  await server?.stop();
});

// identity: the framing of the answers as written (fetch asks for gzip by default; test/http/compression-over-http.test.ts covers that)
const get = (path: string) => fetch(`${server.base}${path}`, { headers: { 'x-api-key': key, origin: ORIGIN, 'accept-encoding': 'identity' } });
const post = (path: string, body: unknown) =>
  fetch(`${server.base}${path}`, { method: 'POST', headers: { 'x-api-key': key, origin: ORIGIN, 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: JSON.stringify(body) });
const area = (limit: number, format = 'json') => get(`/api/v1/area?lat=${dense.lat}&lng=${dense.lng}&radius_miles=25&limit=${limit}&format=${format}`);

/** The header names of a response, without those of the framing. */
const names = (res: Response) => [...res.headers.keys()].filter((k) => !['content-length', 'transfer-encoding'].includes(k)).sort();

describe('large answers over real HTTP', () => {
  it('an area answer over PLAIN_BODY_MAX goes chunked, a small one with Content-Length, with the same headers and a whole JSON body', async () => {
    const small = await area(1);
    const smallBody = await small.text();
    const large = await area(500);
    const largeText = await large.text();
    expect([small.status, large.status]).toEqual([200, 200]);
    expect(Buffer.byteLength(smallBody)).toBeLessThanOrEqual(PLAIN_BODY_MAX);
    expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(smallBody)));
    expect(Buffer.byteLength(largeText)).toBeGreaterThan(PLAIN_BODY_MAX);
    expect(large.headers.get('transfer-encoding')).toBe('chunked');
    expect(large.headers.get('content-type')).toBe(small.headers.get('content-type'));
    // request id, quota and CORS headers set before the answer are carried into it
    expect(names(large)).toEqual(names(small));
    expect(large.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(large.headers.get('x-request-id')).toMatch(/\S/);
    const data = (JSON.parse(largeText) as { data: { facilities: unknown[]; total: number } }).data;
    expect(data.facilities.length).toBe(data.total);
    expect(data.total).toBeGreaterThan(100);
  });

  it('a site report JSON written as bytes goes chunked when large, plain when small, whole and with the same headers', async () => {
    const wide = Object.fromEntries(['adjoining', 'snc', 'enforcement', 'rcra_tsd', 'rcra_generator', 'tri', 'npdes', 'caa_major'].map((k) => [k, 2]));
    const large = await post('/api/v1/site-report', { lat: dense.lat, lng: dense.lng, search_distances: wide });
    const largeText = await large.text();
    // mid-ocean: nothing within reach, a small answer
    const small = await post('/api/v1/site-report', { lat: 0, lng: -30 });
    const smallBody = await small.text();
    expect([large.status, small.status]).toEqual([200, 200]);
    expect(Buffer.byteLength(largeText)).toBeGreaterThan(PLAIN_BODY_MAX);
    expect(large.headers.get('transfer-encoding')).toBe('chunked');
    expect(small.headers.get('content-length')).toBe(String(Buffer.byteLength(smallBody)));
    expect(large.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(names(large)).toEqual(names(small));
    const data = (JSON.parse(largeText) as { data: { findings: { registry_id: string }[]; summary: { category: string; total: number }[] } }).data;
    expect(data.findings.length).toBe(data.summary.find((r) => r.category === 'adjoining')!.total);
    expect(data.findings.length).toBeGreaterThan(20);
    expect((JSON.parse(smallBody) as { data: { findings: unknown[] } }).data.findings).toEqual([]);
  });

  it('CSV and GeoJSON exports over PLAIN_BODY_MAX go chunked with their own headers and the ones set before', async () => {
    for (const format of ['csv', 'geojson']) {
      const res = await area(500, format);
      const body = await res.text();
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(body)).toBeGreaterThan(PLAIN_BODY_MAX);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="area-.*\\.${format}"$`));
      expect(res.headers.get('x-total-count')).toMatch(/^\d+$/);
      expect(res.headers.get('vary')).toBe('Accept, Origin, Accept-Encoding');
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('x-request-id')).toMatch(/\S/);
      // the file holds the first 500 of the facilities matched; its headers say how many matched
      const matched = Number(res.headers.get('x-total-count'));
      const listed = Math.min(matched, 500);
      expect(res.headers.get('x-truncated')).toBe(String(matched > 500));
      if (format === 'csv') expect(body.split('\n').filter(Boolean).length).toBe(1 + listed);
      else expect((JSON.parse(body) as { features: unknown[] }).features.length).toBe(listed);
    }
  });

  it('a portfolio of 300 IDs and its CSV arrive whole, chunked, on one kept-alive connection after other answers', async () => {
    const json = await post('/api/v1/portfolio', { registry_ids: ids });
    const body = (await json.json()) as { data: { results: { registry_id: string }[] } };
    expect(json.headers.get('transfer-encoding')).toBe('chunked');
    expect(body.data.results.map((r) => r.registry_id)).toEqual(ids);
    const csv = await fetch(`${server.base}/api/v1/portfolio?format=csv`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'accept-encoding': 'identity' }, body: JSON.stringify({ registry_ids: ids }) });
    const rows = (await csv.text()).split('\n').filter(Boolean);
    expect(csv.headers.get('transfer-encoding')).toBe('chunked');
    expect(csv.headers.get('x-not-found-count')).toBe('0');
    expect(rows.length).toBe(1 + ids.length);
    // the connection still frames the next answer right
    const after = await area(1);
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { facilities: unknown[] } }).data.facilities).toHaveLength(1);
  });

  it('a watchlist of 2,000 IDs: created (201), read whole and by a page of 1,000, chunked, every ID there in order', async () => {
    const created = await post('/api/v1/watchlists', { name: 'large', registry_ids: many });
    const c = (await created.json()) as { data: { id: string; registry_ids: string[] } };
    expect(created.status).toBe(201);
    expect(created.headers.get('transfer-encoding')).toBe('chunked');
    expect(c.data.registry_ids).toEqual(many);
    const read = await get(`/api/v1/watchlists/${c.data.id}`);
    expect([read.status, read.headers.get('transfer-encoding')]).toEqual([200, 'chunked']);
    expect(((await read.json()) as { data: { registry_ids: string[] } }).data.registry_ids).toEqual(many);
    const page = await get(`/api/v1/watchlists/${c.data.id}/registry_ids?limit=1000`);
    expect([page.status, page.headers.get('transfer-encoding')]).toEqual([200, 'chunked']);
    expect(((await page.json()) as { data: { registry_ids: string[] } }).data.registry_ids).toEqual(many.slice(0, 1000));
    const small = await get(`/api/v1/watchlists/${c.data.id}/registry_ids?limit=2`);
    expect(small.headers.get('content-length')).toMatch(/^\d+$/);
  });
});
