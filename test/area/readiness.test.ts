import { describe, expect, it } from 'bun:test';
import { SpatialHandle } from '../../src/area/spatial-handle';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { DEFAULT_ROWS, json, makeWorld, memoryIndex } from '../helpers';

/**
 * Serve what is ready: while the area index is still being made (a start over an index that
 * carries none), everything else answers and the area search says 503 + Retry-After. The handle
 * is resolved by the test itself, so nothing here depends on timing.
 */
const row = DEFAULT_ROWS[0]!;
const areaPath = `/api/v1/area?lat=${row.lat}&lng=${row.lng}&radius_miles=5`;

async function pendingWorld() {
  const index = memoryIndex(DEFAULT_ROWS);
  const spatial = SpatialHandle.pending();
  const w = makeWorld({ deps: { index, spatial } });
  const { key } = await w.keyFor('enterprise', { monthlyLimit: 100 });
  return { w, key, spatial, index };
}

describe('the area index not ready yet', () => {
  it('area answers 503 SERVICE_UNAVAILABLE with Retry-After at once, not counted; lookups, portfolio and reports answer meanwhile', async () => {
    const { w, key, spatial, index } = await pendingWorld();
    const early = await w.call(areaPath, { key });
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('5');
    const body = await json(early);
    expect(body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503, message: 'The area search is starting: its index is still loading; retry in 5 s' });

    const lookup = await w.call(`/api/v1/facility/${row.registry_id}`, { key });
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get('x-ratelimit-remaining')).toBe('99'); // the 503 was not counted
    const portfolio = await w.call('/api/v1/portfolio', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: [row.registry_id] }) });
    expect(portfolio.status).toBe(200);
    const report = await w.call(`/api/v1/facility/${row.registry_id}/report`, { method: 'POST', key });
    expect(report.status).toBe(200);

    spatial.resolve(buildSpatialIndex(index));
    const later = await w.call(areaPath, { key });
    expect(later.status).toBe(200);
    expect((await json(later)).data.facilities.map((f: { registry_id: string }) => f.registry_id)).toContain(row.registry_id);
  });

  it('a bad query is still 422 (the client can fix that now), and a stranger still 401', async () => {
    const { w, key } = await pendingWorld();
    expect((await w.call('/api/v1/area?lat=91&lng=0&radius_miles=5', { key })).status).toBe(422);
    expect((await w.call(areaPath)).status).toBe(401);
  });

  it('/readyz is 503 "area index still loading" until the handle is ready, then 200', async () => {
    const { w, spatial, index } = await pendingWorld();
    const before = await w.call('/readyz');
    expect(before.status).toBe(503);
    expect((await json(before)).error.message).toBe('Not ready: area index still loading');
    spatial.resolve(buildSpatialIndex(index));
    const after = await w.call('/readyz');
    expect(after.status).toBe(200);
    expect((await json(after)).data.checks.area_index).toBe('ok');
  });

  it('an area index that could not be made: area 503 without Retry-After, /readyz names it', async () => {
    const { w, key, spatial } = await pendingWorld();
    spatial.reject(new Error('disk on fire'));
    const res = await w.call(areaPath, { key });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeNull();
    expect((await json(res)).error.message).toContain('could not be loaded');
    expect((await json(await w.call('/readyz'))).error.message).toBe('Not ready: area index unavailable');
  });
});
