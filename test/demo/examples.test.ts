import { afterAll, describe, expect, it } from 'bun:test';
import { SAMPLE } from '../../scripts/sample';
import { FacilityIndex } from '../../src/index/facility-index';
import { json, makeWorld } from '../helpers';

// The bundled fictitious sample, as `serve` without --index serves it.
const index = FacilityIndex.open(SAMPLE.index);
afterAll(() => index.close());
const world = makeWorld({ deps: { index, peerAddress: (r) => r.headers.get('x-test-peer') } });

describe('GET /api/v1/demo/examples on the bundled sample', () => {
  it('offers three addresses of the sample, one per state, each found by the demo lookup as that very facility', async () => {
    const res = await world.call('/api/v1/demo/examples');
    expect(res.status).toBe(200);
    const { examples } = (await json(res)).data;
    expect(examples).toHaveLength(3);
    expect(new Set(examples.map((e: { registry_id: string }) => index.getSummary(e.registry_id)!.fac_state)).size).toBe(3);
    for (const e of examples) {
      const row = index.getSummary(e.registry_id)!;
      expect(e.address).toBe(`${row.fac_street}, ${row.fac_city}, ${row.fac_state} ${row.fac_zip}`);
      const demo = await world.call(`/api/v1/demo/facility?address=${encodeURIComponent(e.address)}`, { headers: { 'x-test-peer': '203.0.113.9' } });
      expect(demo.status).toBe(200);
      expect((await json(demo)).data).toMatchObject({ fac_name: row.fac_name, fac_city: row.fac_city, fac_state: row.fac_state, overall_score: row.overall_score });
    }
  });

  it('is the same list every time, spends no demo lookup and answers any origin', async () => {
    const first = (await json(await world.call('/api/v1/demo/examples'))).data;
    for (let i = 0; i < 6; i++) {
      const res = await world.call('/api/v1/demo/examples', { headers: { 'x-test-peer': '203.0.113.10', origin: 'https://anyone.example.test' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect((await json(res)).data).toEqual(first);
    }
    const demo = await world.call('/api/v1/demo/facility?address=x', { headers: { 'x-test-peer': '203.0.113.10' } });
    expect(demo.headers.get('x-ratelimit-remaining')).toBe('4');
  });
});
