import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { SiteReport } from '../../src/site-report/model';
import { TIERS } from '../../src/tiers';
import { DEFAULT_ROWS, json, makeWorld } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from './fixtures';

const HOUSTON = { lat: 29.7604, lng: -95.3698 };
const generated = scatter(rng(7), HOUSTON, 300, 1.5, 990_300_000_000);
const world = makeWorld({ rows: [...DEFAULT_ROWS, ...generated.map((g) => g.row)] });
const accounts = Object.fromEntries(await Promise.all(TIERS.map(async (t) => [t, await world.keyFor(t)] as const)));
const usageOf = (tier: string) => world.store.monthlyUsage(accounts[tier]!.accountId, world.clock());

function post(body: unknown, opts: { tier?: string; path?: string; headers?: Record<string, string> } = {}) {
  return world.call(opts.path ?? '/api/v1/site-report', {
    method: 'POST',
    key: accounts[opts.tier ?? 'platform']!.key,
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('POST /api/v1/site-report: who may call it', () => {
  it.each([
    ['free', 403],
    ['starter', 403],
    ['platform', 200],
    ['enterprise', 200],
  ] as const)('the %s tier gets %i, and only a 200 is counted, once', async (tier, status) => {
    const before = await usageOf(tier);
    const res = await post(HOUSTON, { tier });
    expect(res.status).toBe(status);
    const body = await json(res);
    if (status === 403) {
      expect(body.error).toEqual({ code: 'TIER_RESTRICTED', status: 403, message: 'The site report endpoint requires a Platform plan or above' });
      expect(await usageOf(tier)).toBe(before);
    } else {
      expect(Value.Check(SiteReport, body.data)).toBe(true);
      expect(await usageOf(tier)).toBe(before + 1);
    }
  });

  it('without a key it is 401 UNAUTHENTICATED', async () => {
    const res = await world.call('/api/v1/site-report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(HOUSTON) });
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
  });

  it.each(['json', 'csv', 'geojson', 'pdf'])('the %s form counts one call', async (format) => {
    const before = await usageOf('enterprise');
    const res = await post(HOUSTON, { tier: 'enterprise', path: `/api/v1/site-report?format=${format}` });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(await usageOf('enterprise')).toBe(before + 1);
  });
});

describe('bad input: 400 or 422 naming the field, never counted', () => {
  it.each([
    ['not JSON', '{"lat": 29.7,', 400, 'Malformed JSON'],
    ['not an object', '[1, 2]', 400, 'JSON object'],
    ['no site at all', { zip: '77002' }, 400, 'lat and lng, address, or boundary'],
    ['lat without lng', { lat: 29.7 }, 400, 'lng is required'],
    ['lng without lat', { lng: -95.3 }, 400, 'lat is required'],
    ['lat as a string', { lat: '29.7', lng: -95.3 }, 400, 'lat must be a number'],
    ['lat out of range', { lat: 91, lng: -95.3 }, 422, 'lat must be a latitude'],
    ['lng out of range', { lat: 29.7, lng: -181 }, 422, 'lng must be a longitude'],
    ['an unknown field', { lat: 29.7, lng: -95.3, adress: 'x' }, 400, 'unknown field "adress"; the fields are'],
    ['address not a string', { address: 12 }, 400, 'address must be a string'],
    ['address empty', { address: '   ' }, 422, 'address must not be empty'],
    ['address too long', { address: 'x'.repeat(201) }, 422, 'address must be at most 200 characters'],
    ['a bad ZIP', { lat: 29.7, lng: -95.3, zip: '7700' }, 422, 'zip must be a 5-digit ZIP'],
    ['name too long', { lat: 29.7, lng: -95.3, name: 'n'.repeat(201) }, 422, 'name must be at most 200'],
    ['search_distances not an object', { lat: 29.7, lng: -95.3, search_distances: 1 }, 400, 'search_distances must be an object'],
    ['an unknown category', { lat: 29.7, lng: -95.3, search_distances: { npl: 1 } }, 422, 'search_distances.npl is not a category'],
    ['a distance of 0', { lat: 29.7, lng: -95.3, search_distances: { snc: 0 } }, 422, 'search_distances.snc must be a distance'],
    ['a distance over 2 miles', { lat: 29.7, lng: -95.3, search_distances: { adjoining: 2.5 } }, 422, 'search_distances.adjoining must be a distance'],
    ['a distance as a string', { lat: 29.7, lng: -95.3, search_distances: { tri: '1' } }, 400, 'search_distances.tri must be a number'],
  ] as const)('%s', async (_name, body, status, words) => {
    const before = await usageOf('platform');
    const res = await post(body);
    expect(res.status).toBe(status);
    const b = await json(res);
    expect(b.error.code).toBe(status === 400 ? 'INVALID_BODY' : 'VALIDATION_ERROR');
    expect(b.error.message).toContain(words);
    expect(await usageOf('platform')).toBe(before);
  });

  it('a 59 KB body of 6,000 unknown fields (and 6,000 unknown categories) gets a message naming the first 20 and how many, under 4 KB', async () => {
    const fields = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`f${i}`, 1]));
    const res = await post({ lat: 29.7, lng: -95.3, ...fields });
    expect(res.status).toBe(400);
    const { message } = (await json(res)).error;
    expect(message).toStartWith('unknown fields "f0", "f1", "f2"');
    expect(message).toContain('"f19" (the first 20 of 6,000); the fields are');
    expect(message.length).toBeLessThan(4096);
    const categories = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`c${i}`, 1]));
    const many = (await json(await post({ lat: 29.7, lng: -95.3, search_distances: categories }))).error.message;
    expect(many).toEndWith('; and 5,980 more problems');
    expect(many.length).toBeLessThan(4096);
  });

  it('a body sent as another content type is 400 INVALID_BODY', async () => {
    const res = await post(JSON.stringify(HOUSTON), { headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain('Content-Type: application/json');
  });

  it('an unknown format is 422 naming format', async () => {
    const res = await post(HOUSTON, { path: '/api/v1/site-report?format=xml' });
    expect(res.status).toBe(422);
    expect((await json(res)).error.message).toContain('format must be json, csv, geojson or pdf');
  });
});

describe('how the site is located', () => {
  it('coordinates: as given, rounded to 5 decimals', async () => {
    const res = await post({ lat: 29.760412345, lng: -95.369812345, zip: '77002', name: 'Lot 7' });
    const { site } = (await json(res)).data;
    expect(site).toMatchObject({ lat: 29.76041, lng: -95.36981, located_by: 'coordinates', approximate: false, zip: '77002', name: 'Lot 7' });
  });

  it('an address filed in the index: the coordinates of the facility there, which is on site', async () => {
    const res = await post({ address: '100 Main Street, Houston, TX 77002' });
    const data = (await json(res)).data;
    expect(data.site).toMatchObject({ lat: 29.7604, lng: -95.3698, located_by: 'address', approximate: false, matched_registry_id: '990000000003', zip: '77002' });
    expect(data.findings[0]).toMatchObject({ registry_id: '990000000003', direction: 'on site', distance_miles: 0 });
  });

  it('an address the index does not know, with a ZIP: the ZIP\'s centre, marked approximate', async () => {
    const res = await post({ address: '1 Nowhere Lane, Houston, TX 77002' });
    const { site } = (await json(res)).data;
    expect(site).toMatchObject({ located_by: 'zip_centroid', approximate: true, zip: '77002', lat: 29.7594, lng: -95.3594 });
    expect(site.note).toStartWith('APPROXIMATE');
  });

  it('an address with nothing to place it by is 404 NOT_FOUND naming address, counted like an unknown ID', async () => {
    const before = await usageOf('platform');
    const res = await post({ address: '1 Nowhere Lane, Atlantis' });
    expect(res.status).toBe(404);
    expect((await json(res)).error.message).toStartWith('address could not be located');
    expect(await usageOf('platform')).toBe(before + 1);
  });

  it('with coordinates and an address, the coordinates locate and the address is printed', async () => {
    const res = await post({ lat: 29.7, lng: -95.3, address: '100 Main Street, Houston, TX 77002' });
    const { site } = (await json(res)).data;
    expect(site).toMatchObject({ lat: 29.7, lng: -95.3, located_by: 'coordinates', address: '100 Main Street, Houston, TX 77002', matched_registry_id: null });
  });
});

describe('the findings as CSV and GeoJSON', () => {
  it('CSV has one row per finding with its categories and location', async () => {
    const json0 = (await json(await post(HOUSTON))).data;
    const res = await post(HOUSTON, { headers: { accept: 'text/csv' } });
    expect(res.headers.get('content-type')).toStartWith('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="site-report-29.7604_-95.3698_as-of-${json0.dataset.as_of}.csv"`);
    expect([res.headers.get('x-dataset-as-of'), res.headers.get('x-dataset-fictitious'), res.headers.get('x-score-method')]).toEqual([json0.dataset.as_of, String(json0.dataset.fictitious), json0.dataset.score_method]);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toStartWith('registry_id,fac_name,fac_street,fac_city,fac_state,fac_zip,distance_miles,bearing_degrees,direction,categories,');
    expect(lines[0]).toEndWith('location.lat,location.lng,data_sufficient');
    expect(lines.length - 1).toBe(json0.findings.length);
    expect(lines[1]).toStartWith(`${json0.findings[0].registry_id},`);
    expect(lines.join('\n')).not.toContain('["');
  });

  it('the JSON report names its dataset in data.dataset with the very fields of meta.dataset, as the files do in headers', async () => {
    const body = await json(await post(HOUSTON));
    expect(body.data.dataset).toEqual(body.meta.dataset);
    expect(Object.keys(body.data.dataset)).toEqual(['name', 'as_of', 'fictitious', 'score_method']);
  });

  it('GeoJSON has one Point per finding at the facility, [lng, lat]', async () => {
    const res = await post(HOUSTON, { path: '/api/v1/site-report?format=geojson' });
    expect(res.headers.get('content-type')).toBe('application/geo+json');
    const fc = (await res.json()) as { metadata: { as_of: string }; features: { id: string; geometry: { coordinates: [number, number] }; properties: { categories: string[] } }[] };
    const byId = new Map(generated.map((g) => [g.row.registry_id, g.row]));
    expect(fc.features.length).toBeGreaterThan(20);
    expect(fc.metadata.as_of).toBe(res.headers.get('x-dataset-as-of')!);
    for (const f of fc.features.slice(0, 20)) {
      const row = byId.get(f.id) ?? DEFAULT_ROWS.find((r) => r.registry_id === f.id)!;
      expect(f.geometry.coordinates).toEqual([row.lng!, row.lat!]);
      expect(f.properties.categories.length).toBeGreaterThan(0);
    }
  });
});

describe('a parcel over HTTP', () => {
  const boundary = { type: 'Polygon', coordinates: [[[-95.371, 29.759], [-95.368, 29.759], [-95.368, 29.762], [-95.371, 29.762], [-95.371, 29.759]]] };

  it('a boundary alone locates the site at its centre; distances are from the boundary, on_site inside it, the answer fits its schema', async () => {
    const res = await post({ boundary });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Value.Check(SiteReport, body.data)).toBe(true);
    expect(body.data.site).toMatchObject({ located_by: 'boundary', boundary });
    const onSite = body.data.findings.filter((f: { categories: string[] }) => f.categories.includes('on_site'));
    expect(onSite.length).toBeGreaterThan(0);
    for (const f of onSite) expect(f).toMatchObject({ distance_miles: 0, direction: 'on site' });
  });

  it("a parcel's on_site is searched inside its boundary (0 mi), a point site's within 0.02 mi; the PDF summary says so", async () => {
    const { pdfText } = await import('../reports/pdf-tools');
    const onSiteOf = async (site: object) => (await json(await post(site))).data.summary.find((s: { category: string }) => s.category === 'on_site');
    expect((await onSiteOf({ boundary })).search_distance_miles).toBe(0);
    expect((await onSiteOf({ lat: 29.7604, lng: -95.3698 })).search_distance_miles).toBe(0.02);
    const pdf = pdfText(new Uint8Array(await (await post({ boundary, name: 'inside words' }, { headers: { accept: 'application/pdf' } })).arrayBuffer()));
    expect(pdf).toMatch(/On the property\s+inside/);
    expect(pdf).not.toMatch(/On the property\s+0\.02 mi/);
  });

  it('a PDF of a parcel outlines it on the map, says the dots are from its centre and, in its disclaimer, that distances are from the boundary', async () => {
    const { pdfText } = await import('../reports/pdf-tools');
    const res = await post({ boundary }, { headers: { accept: 'application/pdf' } });
    expect(res.status).toBe(200);
    const text = pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain('centre of the parcel (outlined');
    expect(text).toContain('Parcel boundary');
    expect(text).toContain('records around one parcel.');
    expect(text).toContain('Distances are great-circle distances from the parcel boundary as given (0 inside it)');
    expect(text).not.toContain('not from the property boundary');
  });

  it('an open ring is 422 VALIDATION_ERROR naming boundary, not counted', async () => {
    const before = await usageOf('platform');
    const res = await post({ boundary: { type: 'Polygon', coordinates: [boundary.coordinates[0]!.slice(0, 4)] } });
    expect(res.status).toBe(422);
    expect((await json(res)).error.message).toContain('boundary coordinates[0] is not closed');
    expect(await usageOf('platform')).toBe(before);
  });
});
