import { afterAll, describe, expect, it } from 'bun:test';
import { treaty } from '@elysiajs/eden';
import type { App } from '../../src/api/app';
import { makeWorld } from '../helpers';

// Eden Treaty over the running app: real HTTP on loopback, typed from `App` (`npm run typecheck`
// checks the types; a wrong one, e.g. overall_score as string, fails it).
const world = makeWorld({ config: { trustedProxies: ['127.0.0.1/32'] } });
world.app.listen({ port: 0, hostname: '127.0.0.1' });
const api = treaty<App>(`127.0.0.1:${world.app.server!.port}`);
const starter = await world.keyFor('starter');
afterAll(() => world.app.stop(true));

describe('Eden Treaty client', () => {
  it('looks up a facility: typed data, real response', async () => {
    const { data, error, status } = await api.api.v1.facility({ registry_id: '990000000002' }).get({ headers: { 'x-api-key': starter.key } });
    expect(status).toBe(200);
    expect(error).toBeNull();
    const score: number = data!.data.overall_score;
    const active: boolean = data!.data.active_enforcement;
    expect(score).toBe(41);
    expect(active).toBe(true);
    expect(data!.meta.request_id).toMatch(/^req_/);
  });

  it('searches an area with typed query parameters', async () => {
    const { data, status } = await api.api.v1.area.get({ query: { lat: 29.7604, lng: -95.3698, radius_miles: 5 }, headers: { 'x-api-key': starter.key } });
    expect(status).toBe(200);
    const ids: string[] = data!.data.facilities.map((f) => f.registry_id);
    expect(ids).toEqual(['990000000003']);
  });

  it('sends a typed portfolio body', async () => {
    const { data, status } = await api.api.v1.portfolio.post({ registry_ids: ['990000000001', '990000000404'] }, { headers: { 'x-api-key': starter.key } });
    expect(status).toBe(200);
    expect(data!.data.total).toBe(1);
    expect(data!.data.not_found).toEqual(['990000000404']);
  });

  it('an error arrives as the typed error envelope with its status', async () => {
    const { data, error } = await api.api.v1.facility({ registry_id: '990000000404' }).get({ headers: { 'x-api-key': starter.key } });
    expect(data).toBeNull();
    // Eden types `error` from the route's declared responses; the value is our envelope.
    expect(error!.status as number).toBe(404);
    expect((error!.value as unknown as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('the public status needs no key', async () => {
    const { data } = await api.api.v1.status.get();
    expect(data!.data.service).toBe('facility-score');
  });
});
