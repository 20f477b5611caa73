import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld } from '../helpers';

// GET /api/v1/area/place: where the area view centres for what a person types (offline: the
// bundled ZIP table and the index's own facility addresses).
const rows = [
  facility({ registry_id: '990000000701', fac_name: 'BAYOU DRY CLEANERS', fac_street: '400 MAIN ST', fac_city: 'HOUSTON', fac_state: 'TX', fac_zip: '77002', lat: 29.7561, lng: -95.3639 }),
];
const world = makeWorld({ rows });
const { key, accountId } = await world.keyFor('starter');
const place = async (q: string) => {
  const res = await world.call(`/api/v1/area/place?q=${encodeURIComponent(q)}`, { key });
  return { status: res.status, body: await json(res) };
};

describe('GET /api/v1/area/place', () => {
  it('"Houston, TX" is the centre of Houston\'s ZIP codes (downtown, not a facility), located by city', async () => {
    const { status, body } = await place('Houston, TX');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ located_by: 'city', label: 'Houston, TX (the centre of its ZIP codes)' });
    expect(body.data.lat).toBeCloseTo(29.8, 0);
    expect(body.data.lng).toBeCloseTo(-95.4, 0);
  });

  it('a city alone is taken in the state where it has the most ZIP codes, and says so', async () => {
    expect((await place('houston')).body.data.label).toBe('Houston, TX (the centre of its ZIP codes)');
    expect((await place('Springfield IL')).body.data.label).toBe('Springfield, IL (the centre of its ZIP codes)');
  });

  it('a 5-digit ZIP (or ZIP+4) is that ZIP\'s centre', async () => {
    for (const q of ['77002', '77002-1234']) {
      const { body } = await place(q);
      expect(body.data).toMatchObject({ located_by: 'zip', label: 'ZIP 77002 (its centre)' });
    }
  });

  it("a street address is the facility the index files there, at that facility's coordinates", async () => {
    const { body } = await place('400 Main Street, Houston, TX 77002');
    expect(body.data).toMatchObject({ located_by: 'address', lat: 29.7561, lng: -95.3639 });
  });

  it("an address no facility has falls back to its ZIP's centre, and says the street matched nothing", async () => {
    const { body } = await place('12 Nowhere Ln, Houston, TX 77002');
    expect(body.data).toMatchObject({ located_by: 'zip', label: 'ZIP 77002 (its centre; the street matched no facility)' });
  });

  it('what matches nothing is 404 NOT_FOUND saying what to type; a missing q is 422; neither is counted', async () => {
    const miss = await place('Xyzzyville, TX');
    expect([miss.status, miss.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect(miss.body.error.message).toContain('"City, ST"');
    const none = await world.call('/api/v1/area/place', { key });
    expect(none.status).toBe(422);
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(0);
  });
});
