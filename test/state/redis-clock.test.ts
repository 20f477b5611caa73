import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { generateKey } from '../../src/access/key-format';
import { RedisStateStore } from '../../src/state/redis-store';
import { monthOf } from '../../src/state/store';
import { RedisServer } from '../support/redis-server';

let redis: RedisServer;
let n = 0;
const opened: RedisStateStore[] = [];
const open = (clock: 'redis' | 'caller', prefix = `clock${++n}:`) => {
  const s = new RedisStateStore({ url: redis.url, prefix, clock });
  opened.push(s);
  return s;
};

beforeAll(async () => {
  redis = await RedisServer.start();
}, 20_000);
afterAll(async () => {
  for (const s of opened) await s.close();
  await redis.dispose();
});

const DAY = 86_400_000;

describe('Redis store: whose clock decides', () => {
  it('with the Redis clock, replicas whose clocks sit in different months still share one monthly count', async () => {
    const prefix = `skew${++n}:`;
    const behind = open('redis', prefix);
    const ahead = open('redis', prefix);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? behind : ahead).consumeMonthly('acct_s', 10, i % 2 ? Date.UTC(2020, 0, 31, 23, 59) : Date.UTC(2031, 5, 1))),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    // The month is Redis's (this machine's) current month, not either caller's.
    expect(results[0]!.resetAt).toBe(monthOf(Date.now()).resetAt);
    expect(await behind.monthlyUsage('acct_s', 0)).toBe(10);
  });

  it('with the Redis clock, a rolling window ignores the callers\' skewed clocks', async () => {
    const prefix = `skeww${++n}:`;
    const a = open('redis', prefix);
    const b = open('redis', prefix);
    for (let i = 0; i < 5; i++) expect((await (i % 2 ? a : b).hitWindow('ip', 5, 3_600_000, i % 2 ? 0 : 10 * DAY)).allowed).toBe(true);
    // Were the caller's clock used, 10 days later would be a fresh window.
    const r = await a.hitWindow('ip', 5, 3_600_000, 20 * DAY);
    expect(r.allowed).toBe(false);
    expect(Math.abs(r.resetAt - (Date.now() + 3_600_000))).toBeLessThan(60_000);
  });

  it('with the Redis clock, the regeneration throttle runs on Redis time', async () => {
    const s = open('redis');
    const a = await s.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: 0 });
    const k = generateKey();
    await s.setKey(a.id, k.hash, k.prefix, 0);
    expect((await s.regenerateKey(a.id, generateKey().hash, 'p', 0, 60_000)).ok).toBe(true);
    expect(await s.regenerateKey(a.id, generateKey().hash, 'p', 365 * DAY, 60_000)).toMatchObject({ ok: false, reason: 'throttled' });
  });

  it('the Lua calendar agrees with monthOf for any instant from 1970 to 2200 (reset instant and month bucket)', async () => {
    const s = open('caller');
    let i = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), async (t) => {
        const id = `acct_p${i++}`;
        const r = await s.consumeMonthly(id, 1000, t);
        expect(r.resetAt).toBe(monthOf(t).resetAt);
        // The last instant of the month shares the bucket; the next month's first does not.
        expect(await s.monthlyUsage(id, monthOf(t).resetAt - 1)).toBe(1);
        expect(await s.monthlyUsage(id, monthOf(t).resetAt)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['leap day', Date.UTC(2028, 1, 29, 23, 59, 59, 999), Date.UTC(2028, 2, 1)],
    ['new year', Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1)],
    ['century non-leap', Date.UTC(2100, 1, 28, 12), Date.UTC(2100, 2, 1)],
    ['400-year leap', Date.UTC(2000, 1, 29), Date.UTC(2000, 2, 1)],
  ])('month boundary at %s', async (_name, t, reset) => {
    expect((await open('caller').consumeMonthly('acct_b', 1, t)).resetAt).toBe(reset);
  });
});

describe('Redis store: data it must not trust', () => {
  it('a key mapping that points at an account holding another key authenticates nobody', async () => {
    const prefix = `bad${++n}:`;
    const s = open('caller', prefix);
    const a = await s.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: 0 });
    const k = generateKey();
    await s.setKey(a.id, k.hash, k.prefix, 0);
    const stray = generateKey();
    redis.cli('SET', `${prefix}k:${stray.hash}`, a.id);
    expect(await s.findAccountByKeyHash(stray.hash)).toBeNull();
    expect((await s.findAccountByKeyHash(k.hash))!.id).toBe(a.id);
  });
});
