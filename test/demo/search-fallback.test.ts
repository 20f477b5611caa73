import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld } from '../helpers';

const ROWS = [
  facility({ registry_id: '990000000301', fac_name: 'MAIN STREET PLATING (FICTITIOUS)', fac_street: '100 MAIN ST', fac_city: 'SPRINGFIELD', fac_state: 'IL', fac_zip: '62701' }),
  facility({ registry_id: '990000000302', fac_name: 'OAK AVENUE FOUNDRY (FICTITIOUS)', fac_street: '200 N OAK AVE STE 4', fac_city: 'DECATUR', fac_state: 'IL', fac_zip: '62521' }),
  // Two facilities at "300 ELM" in one city, on an avenue and a road: an address naming neither type is ambiguous.
  facility({ registry_id: '990000000303', fac_name: 'ELM AVENUE WORKS (FICTITIOUS)', fac_street: '300 ELM AVE', fac_city: 'PEORIA', fac_state: 'IL', fac_zip: '61602' }),
  facility({ registry_id: '990000000304', fac_name: 'ELM ROAD WORKS (FICTITIOUS)', fac_street: '300 ELM RD', fac_city: 'PEORIA', fac_state: 'IL', fac_zip: '61602' }),
  facility({ registry_id: '990000000305', fac_name: 'MAIN STREET PLATING EAST (FICTITIOUS)', fac_street: '100 MAIN ST', fac_city: 'SPRINGFIELD', fac_state: 'MO', fac_zip: '65806' }),
];

const world = makeWorld({ rows: ROWS, deps: { peerAddress: () => null } });
const demo = (address: string) => world.call(`/api/v1/demo/facility?address=${encodeURIComponent(address)}`);

describe('demo lookup falls back to the search index', () => {
  it.each([
    ['the exact match still answers first', '100 Main Street, Springfield IL', 'MAIN STREET PLATING (FICTITIOUS)', 'offline'],
    ['street type left out', '100 Main, Springfield IL', 'MAIN STREET PLATING (FICTITIOUS)', 'search'],
    ['another street type typed', '100 Main Avenue, Springfield, IL 62701', 'MAIN STREET PLATING (FICTITIOUS)', 'search'],
    ['directional and suite left out, ZIP given', '200 Oak Ave, IL 62521', 'OAK AVENUE FOUNDRY (FICTITIOUS)', 'search'],
    ['a directional the index does not have', '100 North Main St, Springfield, IL', 'MAIN STREET PLATING (FICTITIOUS)', 'search'],
    ['lower case, no commas', '200 oak decatur il', 'OAK AVENUE FOUNDRY (FICTITIOUS)', 'search'],
    ['the same address in another state', '100 Main, Springfield MO 65806', 'MAIN STREET PLATING EAST (FICTITIOUS)', 'search'],
  ])('%s: %j finds %s', async (_why, address, name, source) => {
    const res = await demo(address);
    expect(res.status).toBe(200);
    expect((await json(res)).data.fac_name).toBe(name);
    expect(world.logs.at(-1)).toMatchObject({ msg: 'demo lookup', source, found: true });
  });

  it.each([
    ['two facilities fit (avenue and road)', '300 Elm, Peoria IL'],
    ['another house number', '102 Main, Springfield IL'],
    ['another city, no ZIP', '100 Main, Chicago IL'],
    ['another ZIP', '100 Main, IL 62702'],
    ['another street name', '100 Maine, Springfield IL'],
    ['no city and no ZIP', '100 Main, IL'],
    ['no house number', 'Main St, Springfield IL'],
  ])('%s: %j is the same 404 NOT_FOUND as before', async (_why, address) => {
    const res = await demo(address);
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('NOT_FOUND');
  });
});
