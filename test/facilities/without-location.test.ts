import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { FacilityResponse } from '../../src/facilities/model';
import { DEFAULT_ROWS, facility, json, makeWorld } from '../helpers';

// A facility EPA lists without usable coordinates, beside the default ones (one of which it neighbours by ZIP)
const NEIGHBOUR = DEFAULT_ROWS[0]!;
const UNPLACED = facility({ registry_id: '990000777001', fac_name: 'QUILLOMAR UNPLACED TANNERY', fac_city: NEIGHBOUR.fac_city, fac_state: NEIGHBOUR.fac_state, fac_zip: NEIGHBOUR.fac_zip, lat: null, lng: null });
const world = makeWorld({ rows: [...DEFAULT_ROWS, UNPLACED] });
const key = (await world.keyFor('starter', { monthlyLimit: 1_000 })).key;

describe('a facility without coordinates is a facility: served, found, counted, never placed', () => {
  it('answers 200 by registry ID with location null, and the body matches the schema', async () => {
    const res = await world.call(`/api/v1/facility/${UNPLACED.registry_id}`, { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Value.Check(FacilityResponse, body)).toBe(true);
    expect(body.data).toMatchObject({ registry_id: UNPLACED.registry_id, fac_name: UNPLACED.fac_name, location: null, overall_score: UNPLACED.overall_score });
  });

  it('an area search around its neighbour never returns it, whatever the radius', async () => {
    for (const radius of [1, 25]) {
      const body = await json(await world.call(`/api/v1/area?lat=${NEIGHBOUR.lat}&lng=${NEIGHBOUR.lng}&radius_miles=${radius}&limit=500`, { key }));
      expect(body.data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(NEIGHBOUR.registry_id);
      expect(body.data.facilities.map((f: { registry_id: string }) => f.registry_id)).not.toContain(UNPLACED.registry_id);
    }
  });

  it('search by its name finds it, and its GeoJSON feature has a null geometry', async () => {
    const body = await json(await world.call('/api/v1/search?q=quillomar', { key }));
    expect(body.data.facilities.map((f: { registry_id: string }) => f.registry_id)).toEqual([UNPLACED.registry_id]);
    const geo = await json(await world.call('/api/v1/search?q=quillomar&format=geojson', { key }));
    expect(geo.features).toEqual([expect.objectContaining({ id: UNPLACED.registry_id, geometry: null })]);
  });

  it('/status counts it among facilities_without_location', async () => {
    const body = await json(await world.call('/api/v1/status'));
    expect(body.data.dataset.facility_count).toBe(DEFAULT_ROWS.length + 1);
    expect(body.data.dataset.facilities_without_location).toBe(1);
  });
});
