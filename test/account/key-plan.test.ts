import { describe, expect, it } from 'bun:test';
import { json, makeWorld } from '../helpers';

const world = makeWorld();

describe('GET /api/v1/plan', () => {
  it.each([
    ['free', ['facility'], false, 0, 10],
    ['starter', ['facility', 'history', 'search', 'area', 'portfolio', 'watchlists'], true, 10, 10_000],
    ['platform', ['facility', 'history', 'search', 'area', 'portfolio', 'report', 'site_report', 'watchlists'], true, 60, 100_000],
  ] as const)('a %s key learns what it may call, and asking is not counted', async (tier, endpoints, full, batch, limit) => {
    const { key, accountId } = await world.keyFor(tier);
    await world.call('/api/v1/facility/990000000001', { key });
    const res = await world.call('/api/v1/plan', { key });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ tier, endpoints: [...endpoints], full_components: full, portfolio_batch: batch, monthly_limit: limit, calls_this_month: 1, calls_remaining: limit - 1, month: '2026-11' });
    expect(await world.store.monthlyUsage(accountId, world.clock())).toBe(1);
  });

  it('needs a key: 401 without one', async () => {
    const res = await world.call('/api/v1/plan');
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
  });
});
