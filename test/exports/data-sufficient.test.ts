import { describe, expect, it } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { json } from '../helpers';
import { judgedPair, PAIRED, without, type PairWorld } from '../support/judged-pair';

// One facility in two worlds, FAC_ACTIVE_FLAG Y in one and N in the other: every list says which.
const pair = await judgedPair();

type Surface = { call: (w: PairWorld, form: 'json' | 'csv' | 'geojson') => Promise<Response>; items: (body: any) => any[]; /** Fields that may differ besides data_sufficient. */ differing: string[] };
const SURFACES: Record<string, Surface> = {
  area: {
    call: (w, form) => w.call(`/api/v1/area?lat=${PAIRED.lat}&lng=${PAIRED.lng}&radius_miles=1&format=${form}`, { key: w.key }),
    items: (b) => b.data.facilities,
    differing: [],
  },
  search: {
    call: (w, form) => w.call(`/api/v1/search?q=paired%20plat&format=${form}`, { key: w.key }),
    items: (b) => b.data.facilities,
    differing: [],
  },
  portfolio: {
    call: (w, form) => w.call(`/api/v1/portfolio?format=${form}`, { key: w.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: [PAIRED.registry_id] }) }),
    items: (b) => b.data.results,
    // a facility without enough data is nobody's peer, its own group included
    differing: ['peers'],
  },
};
const NAMES = Object.keys(SURFACES);

async function both<T>(read: (w: PairWorld) => Promise<T>): Promise<{ judged: T; unjudged: T }> {
  return { judged: await read(pair.judged), unjudged: await read(pair.unjudged) };
}

describe('data_sufficient on a list item: the same facility with FAC_ACTIVE_FLAG Y, then N', () => {
  it.each(NAMES)('%s JSON: true, then false; every other field the same', async (name) => {
    const s = SURFACES[name]!;
    const { judged, unjudged } = await both(async (w) => s.items(await json(await s.call(w, 'json')))[0]);
    expect([judged.registry_id, judged.data_sufficient, unjudged.data_sufficient]).toEqual([PAIRED.registry_id, true, false]);
    expect(without(unjudged, 'data_sufficient', ...s.differing)).toEqual(without(judged, 'data_sufficient', ...s.differing));
  });

  it.each(NAMES)('%s CSV: a data_sufficient column, true, then false; every other cell the same', async (name) => {
    const s = SURFACES[name]!;
    const { judged, unjudged } = await both(async (w) => (parse(await (await s.call(w, 'csv')).text(), { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[])[0]!);
    expect([judged.registry_id, judged.data_sufficient, unjudged.data_sufficient]).toEqual([PAIRED.registry_id, 'true', 'false']);
    expect(without(unjudged, 'data_sufficient', ...s.differing)).toEqual(without(judged, 'data_sufficient', ...s.differing));
  });

  it.each(NAMES)('%s GeoJSON: a data_sufficient property, true, then false; the point the same', async (name) => {
    const s = SURFACES[name]!;
    const { judged, unjudged } = await both(async (w) => JSON.parse(await (await s.call(w, 'geojson')).text()).features[0]);
    expect([judged.id, judged.properties.data_sufficient, unjudged.properties.data_sufficient]).toEqual([PAIRED.registry_id, true, false]);
    expect(unjudged.geometry).toEqual(judged.geometry);
    expect(without(unjudged.properties, 'data_sufficient', ...s.differing)).toEqual(without(judged.properties, 'data_sufficient', ...s.differing));
  });
});
