import { afterAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { censusEndpoint, censusGeocoder, readCensusReply } from '../../src/demo/census-geocoder';
import { facility, json, makeWorld } from '../helpers';

const MATCH = readFileSync(join(import.meta.dir, 'fixtures', 'census-onelineaddress.json'), 'utf8');
const NO_MATCH = readFileSync(join(import.meta.dir, 'fixtures', 'census-no-match.json'), 'utf8');
// The recorded reply's point: the Census Bureau HQ, 4600 Silver Hill Rd (x = longitude, y = latitude).
const HQ = { lat: 38.845053106269, lng: -76.928365658124 };

/** A loopback stand-in for the Census geocoder: replays recorded replies, or misbehaves on request. */
const seen: URL[] = [];
let mode: 'match' | 'none' | 'slow' | 'error' = 'match';
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(req) {
    const url = new URL(req.url);
    seen.push(url);
    if (url.pathname !== '/geocoder/locations/onelineaddress') return new Response('not found', { status: 404 });
    if (mode === 'slow') await Bun.sleep(2000);
    if (mode === 'error') return Response.json({ errors: ['Internal error'], status: '500' }, { status: 500 });
    return new Response(mode === 'none' ? NO_MATCH : MATCH, { headers: { 'content-type': 'application/json' } });
  },
});
afterAll(() => server.stop(true));
const base = `http://127.0.0.1:${server.port}`;

// Fictitious facilities near the recorded point: ~0.03 mi and ~0.3 mi north of it.
const NEAR = facility({ registry_id: '990000000401', fac_name: 'NEAR PLANT (FICTITIOUS)', fac_street: '1 TEST WAY', fac_city: 'SUITLAND', fac_state: 'MD', fac_zip: '20746', lat: HQ.lat + 0.0004, lng: HQ.lng });
const FAR = facility({ registry_id: '990000000402', fac_name: 'FAR PLANT (FICTITIOUS)', fac_street: '2 TEST WAY', fac_city: 'SUITLAND', fac_state: 'MD', fac_zip: '20746', lat: HQ.lat + 0.0045, lng: HQ.lng });
const OFFLINE = facility({ registry_id: '990000000403', fac_name: 'OFFLINE PLANT (FICTITIOUS)', fac_street: '10 MARKET ST', fac_city: 'ANNAPOLIS', fac_state: 'MD', fac_zip: '21401' });

function world(rows = [NEAR, FAR, OFFLINE], url = base, timeoutMs = 300) {
  return makeWorld({ rows, config: { geocoderUrl: url, geocoderTimeoutMs: timeoutMs }, deps: { peerAddress: () => '198.51.100.50' } });
}
const demo = (address: string) => `/api/v1/demo/facility?address=${encodeURIComponent(address)}`;

describe('the Census-format reply', () => {
  it('reads x as longitude and y as latitude from the recorded reply', () => {
    expect(readCensusReply(JSON.parse(MATCH))).toEqual({ ...HQ, matched: '4600 SILVER HILL RD, WASHINGTON, DC, 20233' });
  });

  it.each([
    ['the recorded no-match reply', JSON.parse(NO_MATCH)],
    ['an error reply', { errors: ['Benchmark is invalid'], status: '400' }],
    ['coordinates out of range', { result: { addressMatches: [{ coordinates: { x: 200, y: 10 } }] } }],
    ['null', null],
  ])('finds no point in %s', (_, body) => expect(readCensusReply(body)).toBeNull());

  it('appends the one-line-address path to a base URL and keeps a full endpoint as given', () => {
    expect(censusEndpoint('https://geocoding.geo.census.gov/')).toBe('https://geocoding.geo.census.gov/geocoder/locations/onelineaddress');
    expect(censusEndpoint('http://proxy/x/onelineaddress')).toBe('http://proxy/x/onelineaddress');
  });
});

describe('demo lookup with an external geocoder on loopback', () => {
  it('sends the one-line address, benchmark and format=json the way the Census API expects', async () => {
    mode = 'match';
    seen.length = 0;
    await censusGeocoder({ url: base, benchmark: 'Public_AR_Current', timeoutMs: 1000 }).geocode('4600 Silver Hill Rd, Washington, DC 20233');
    expect(seen[0]!.searchParams.get('address')).toBe('4600 Silver Hill Rd, Washington, DC 20233');
    expect(seen[0]!.searchParams.get('benchmark')).toBe('Public_AR_Current');
    expect(seen[0]!.searchParams.get('format')).toBe('json');
  });

  it('when the geocoder is up, answers the nearest facility within 0.1 mile of its point', async () => {
    mode = 'match';
    const res = await world().call(demo('4600 Silver Hill Rd, Washington, DC 20233'));
    expect(res.status).toBe(200);
    expect((await json(res)).data.fac_name).toBe('NEAR PLANT (FICTITIOUS)');
  });

  it('a point with no facility within 0.1 mile is 404 saying the address was found but nothing is near it', async () => {
    mode = 'match';
    const res = await world([FAR, OFFLINE]).call(demo('4600 Silver Hill Rd, Washington, DC 20233'));
    expect(res.status).toBe(404);
    expect((await json(res)).error.message).toContain('within 0.1 mile');
  });

  it('asks the external geocoder nothing when the index itself holds the address', async () => {
    mode = 'match';
    seen.length = 0;
    const res = await world().call(demo('10 Market Street, Annapolis, MD 21401'));
    expect((await json(res)).data.fac_name).toBe('OFFLINE PLANT (FICTITIOUS)');
    expect(seen.length).toBe(0);
  });

  it.each([
    ['slow (past the timeout)', 'slow' as const],
    ['failing with HTTP 500', 'error' as const],
  ])('when the geocoder is %s, the offline result stands and nothing is a 500', async (_, m) => {
    mode = m;
    const w = world();
    const started = performance.now();
    const miss = await w.call(demo('4600 Silver Hill Rd, Washington, DC 20233'));
    expect(miss.status).toBe(404);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(w.logs.some((l) => l.msg === 'geocoder failed; falling back' && l.geocoder === 'census')).toBe(true);
    const hit = await w.call(demo('10 Market St, Annapolis, MD 21401'));
    expect(hit.status).toBe(200);
  });

  it('when the geocoder is down (connection refused), the offline result stands', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const deadUrl = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const w = world([NEAR, OFFLINE], deadUrl);
    expect((await w.call(demo('4600 Silver Hill Rd, Washington, DC 20233'))).status).toBe(404);
    expect((await w.call(demo('10 Market St, Annapolis, MD 21401'))).status).toBe(200);
    expect(w.logs.some((l) => l.msg === 'geocoder failed; falling back')).toBe(true);
  });

  it('a no-match reply is a 404 like any address nobody is at', async () => {
    mode = 'none';
    seen.length = 0;
    const w = world();
    const res = await w.call(demo('99999 Nonexistent Fake St, Washington, DC 20001'));
    expect(res.status).toBe(404);
    // The geocoder was asked and answered "no match": not a failure to fall back from.
    expect(seen.length).toBe(1);
    expect(w.logs.some((l) => l.msg === 'geocoder failed; falling back')).toBe(false);
    expect((await json(res)).error.message).toBe('No facility in the index is at this address');
  });
});
