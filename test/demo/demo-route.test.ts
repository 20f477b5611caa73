import { describe, expect, it } from 'bun:test';
import { facility, json, makeWorld } from '../helpers';

const ROWS = [
  facility({ registry_id: '990000000201', fac_name: 'ACME CHEMICAL WORKS (FICTITIOUS)', fac_street: '717 E CENTER ST', fac_city: 'SHERIDAN', fac_state: 'AR', fac_zip: '72150', overall_score: 64, active_enforcement: true }),
];

/** A world whose requests carry their peer address in a test-only header (app.handle has no socket). */
function world() {
  return makeWorld({ rows: ROWS, deps: { peerAddress: (r) => r.headers.get('x-test-peer') } });
}
const demo = (address: string | null) => `/api/v1/demo/facility${address === null ? '' : `?address=${encodeURIComponent(address)}`}`;

describe('GET /api/v1/demo/facility', () => {
  it('answers the facility at the address with exactly the fields of the preview', async () => {
    const w = world();
    const res = await w.call(demo('717 East Center Street, Sheridan, AR 72150'), { headers: { 'x-test-peer': '203.0.113.1' } });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data).toEqual({
      fac_name: 'ACME CHEMICAL WORKS (FICTITIOUS)',
      fac_city: 'SHERIDAN',
      fac_state: 'AR',
      overall_score: 64,
      active_enforcement: true,
      score_components: { redacted: true, message: 'Score components are available on the Starter plan or above' },
    });
    expect(body.meta.request_id).toMatch(/^req_/);
  });

  it.each([
    ['no commas, ZIP only (state from the ZIP)', '717 E Center St 72150'],
    ['no commas, city and ZIP, no state', '717 East Center Street Sheridan 72150'],
    ['street and ZIP split by one comma', '717 E Center St, 72150'],
  ])('finds the facility from an address with %s', async (_name, address) => {
    const res = await world().call(demo(address), { headers: { 'x-test-peer': '203.0.113.1' } });
    expect(res.status).toBe(200);
    expect((await json(res)).data.fac_name).toBe('ACME CHEMICAL WORKS (FICTITIOUS)');
  });

  it('leaks no registry ID, street, ZIP, coordinates or component points anywhere in the body', async () => {
    const w = world();
    const body = await json(await w.call(demo('717 E Center St, Sheridan, AR'), { headers: { 'x-test-peer': '203.0.113.1' } }));
    // meta is left out: a random request_id could contain "717" by chance.
    const text = JSON.stringify(body.data);
    expect(Object.keys(body)).toEqual(['data', 'meta']);
    for (const secret of ['990000000201', '717', '72150', String(ROWS[0]!.lat), String(ROWS[0]!.lng), 'penalty', 'baseline']) expect(text).not.toContain(secret);
  });

  it.each([
    ['an API key', { 'x-api-key': 'fcs_not_a_real_key' }],
    ['a Bearer header', { authorization: 'Bearer abc.def.ghi' }],
  ])('ignores %s sent anyway (the demo is public)', async (_, headers) => {
    const res = await world().call(demo('717 E Center St, Sheridan, AR'), { headers: { 'x-test-peer': '203.0.113.1', ...headers } });
    expect(res.status).toBe(200);
  });

  it.each([
    ['an address nobody is at', '1 Nowhere Rd, Sheridan, AR 72150', 'No facility in the index is at this address'],
    ['a line with no street in it', 'hello', 'could not be geocoded'],
    ['a street with no state or ZIP', '717 E Center St', 'could not be geocoded: add the state or the ZIP code'],
    ['the same street in another city', '717 E Center St, Little Rock, AR 72201', 'No facility'],
  ])('%s is 404 NOT_FOUND with a message saying so', async (_, address, message) => {
    const res = await world().call(demo(address), { headers: { 'x-test-peer': '203.0.113.1' } });
    expect(res.status).toBe(404);
    const body = await json(res);
    expect(body.error.code).toBe('NOT_FOUND');
    expect(body.error.message).toContain(message);
  });

  it.each([
    ['missing', null],
    ['empty', ''],
    ['blank', '   '],
    ['201 characters', `717 E Center St, Sheridan, AR 72150 ${'x'.repeat(165)}`],
  ])('an address that is %s is 422 VALIDATION_ERROR', async (_, address) => {
    if (address !== null && address.length > 40) expect(address.length).toBe(201);
    const res = await world().call(demo(address), { headers: { 'x-test-peer': '203.0.113.1' } });
    expect(res.status).toBe(422);
    expect((await json(res)).error.code).toBe('VALIDATION_ERROR');
  });

  it('accepts an address of exactly 200 characters', async () => {
    const address = `717 E Center St, Sheridan, AR 72150${' '.repeat(165)}`;
    expect(address.length).toBe(200);
    expect((await world().call(demo(address), { headers: { 'x-test-peer': '203.0.113.1' } })).status).toBe(200);
  });

  it('is documented in the OpenAPI document with its outcomes', async () => {
    const doc = await json(await world().call('/swagger/json'));
    const op = doc.paths['/api/v1/demo/facility'].get;
    expect(Object.keys(op.responses).filter((s) => s !== 'default').sort()).toEqual(['200', '404', '422', '429', '500', '503']);
  });

  it('never logs the address a prospect typed', async () => {
    const w = world();
    await w.call(demo('717 E Center St, Sheridan, AR'), { headers: { 'x-test-peer': '203.0.113.1' } });
    expect(w.logs.some((l) => l.msg === 'demo lookup' && l.source === 'offline' && l.found === true)).toBe(true);
    expect(JSON.stringify(w.logs)).not.toContain('Center');
  });
});
