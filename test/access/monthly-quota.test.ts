import { describe, expect, it } from 'bun:test';
import { TIER_RULES } from '../../src/tiers';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { FIXED_NOW, json, makeWorld } from '../helpers';
import { tempPath } from '../support/temp-dir';

const LOOKUP = '/api/v1/facility/990000000001';
const DEC_1 = Date.UTC(2026, 11, 1);

describe('monthly quota', () => {
  it('a Free key gets 10 calls a month; the 11th is 402 QUOTA_EXHAUSTED', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    for (let i = 1; i <= 10; i++) expect((await w.call(LOOKUP, { key: k.key })).status).toBe(200);
    const res = await w.call(LOOKUP, { key: k.key });
    const body = await json(res);
    expect(res.status).toBe(402);
    expect(body.error.code).toBe('QUOTA_EXHAUSTED');
    expect(res.headers.get('retry-after')).toBe(String((DEC_1 - FIXED_NOW) / 1000));
  });

  it('rejected calls are not counted: the 402 itself leaves usage at the cap', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    for (let i = 0; i < 15; i++) await w.call(LOOKUP, { key: k.key });
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(10);
  });

  it('an unknown but well-formed ID counts as a call (the index was searched)', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    expect((await w.call('/api/v1/facility/990000009999', { key: k.key })).status).toBe(404);
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(1);
  });

  it('the quota resets at the UTC calendar-month boundary', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    for (let i = 0; i < 10; i++) await w.call(LOOKUP, { key: k.key });
    w.clock.set(DEC_1 - 1);
    expect((await w.call(LOOKUP, { key: k.key })).status).toBe(402);
    w.clock.set(DEC_1);
    expect((await w.call(LOOKUP, { key: k.key })).status).toBe(200);
    expect(await w.store.monthlyUsage(k.accountId, DEC_1)).toBe(1);
  });

  it.each(['starter', 'platform', 'enterprise'] as const)('a %s key over its monthly cap gets 429 RATE_LIMIT_EXCEEDED with Retry-After to the month boundary', async (tier) => {
    const w = makeWorld();
    const k = await w.keyFor(tier, { monthlyLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await w.call(LOOKUP, { key: k.key })).status).toBe(200);
    const res = await w.call(LOOKUP, { key: k.key });
    expect(res.status).toBe(429);
    expect((await json(res)).error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(res.headers.get('retry-after'))).toBe((DEC_1 - FIXED_NOW) / 1000);
  });

  it('paid tiers default to their documented caps', async () => {
    const w = makeWorld();
    for (const tier of ['starter', 'platform', 'enterprise'] as const) {
      const k = await w.keyFor(tier);
      const res = await w.call(LOOKUP, { key: k.key });
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(TIER_RULES[tier].monthlyCalls));
    }
  });

  it('sends RateLimit-Policy / RateLimit (IETF draft) and X-RateLimit-* headers', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    await w.call(LOOKUP, { key: k.key });
    const res = await w.call(LOOKUP, { key: k.key });
    const reset = (DEC_1 - FIXED_NOW) / 1000;
    expect(res.headers.get('ratelimit-policy')).toBe(`"monthly";q=10;w=${30 * 86400}`);
    expect(res.headers.get('ratelimit')).toBe(`"monthly";r=8;t=${reset}`);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('8');
    expect(res.headers.get('x-ratelimit-reset')).toBe(String(DEC_1 / 1000));
  });

  it('50 concurrent calls on a fresh Free key: exactly 10 succeed, 40 get 402', async () => {
    const w = makeWorld();
    const k = await w.keyFor('free');
    const statuses = await Promise.all(Array.from({ length: 50 }, () => w.call(LOOKUP, { key: k.key }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200).length).toBe(10);
    expect(statuses.filter((s) => s === 402).length).toBe(40);
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(10);
  });

  it('two accounts never share a counter', async () => {
    const w = makeWorld();
    const a = await w.keyFor('free');
    const b = await w.keyFor('free');
    for (let i = 0; i < 10; i++) await w.call(LOOKUP, { key: a.key });
    expect((await w.call(LOOKUP, { key: b.key })).status).toBe(200);
  });

  it('counted calls survive closing and reopening the state file', async () => {
    const path = tempPath('quota', 'state.sqlite');
    const store = new SqliteStateStore(path);
    const w = makeWorld({ store });
    const k = await w.keyFor('free');
    for (let i = 0; i < 7; i++) await w.call(LOOKUP, { key: k.key });
    await store.close();
    const reopened = new SqliteStateStore(path);
    expect(await reopened.monthlyUsage(k.accountId, FIXED_NOW)).toBe(7);
    const w2 = makeWorld({ store: reopened });
    for (let i = 0; i < 3; i++) expect((await w2.call(LOOKUP, { key: k.key })).status).toBe(200);
    expect((await w2.call(LOOKUP, { key: k.key })).status).toBe(402);
  });
});
