import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test';
import { generateKey } from '../../src/access/key-format';
import { AppError } from '../../src/errors';
import { RedisStateStore } from '../../src/state/redis-store';
import { RedisServer } from '../support/redis-server';

// Fault policy of docs/replicas.md, against a real redis-server that we stop, restart, pause and freeze.
const TIMEOUT = 300;
let redis: RedisServer;
let n = 0;
const opened: RedisStateStore[] = [];
const logs: Record<string, unknown>[] = [];

/** A store as the tests use it (`TIMEOUT`); 'default' gives the store's own default timeout. */
function open(timeoutMs: number | 'default' = TIMEOUT, prefix = `fault${++n}:`) {
  const s = new RedisStateStore({ url: redis.url, prefix, clock: 'caller', timeoutMs: timeoutMs === 'default' ? undefined : timeoutMs, retryDelayMs: 100, log: (e) => void logs.push(e) });
  opened.push(s);
  return s;
}

/** Runs `f`, returning how long it took and the AppError it threw (fails when it does not throw one). */
async function failure(f: () => Promise<unknown>): Promise<{ ms: number; error: AppError }> {
  const t0 = performance.now();
  try {
    await f();
  } catch (e) {
    if (e instanceof AppError) return { ms: performance.now() - t0, error: e };
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** Polls until `f` succeeds; returns the ms it took. */
async function until(f: () => Promise<unknown>, limitMs = 10_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    try {
      await f();
      return performance.now() - t0;
    } catch (e) {
      if (performance.now() - t0 > limitMs) throw e;
      await Bun.sleep(50);
    }
  }
}

beforeAll(async () => {
  redis = await RedisServer.start({ durable: true });
}, 20_000);
afterEach(async () => {
  redis.thaw();
  if (!redis.running) await redis.restart();
});
afterAll(async () => {
  for (const s of opened) await s.close();
  await redis.dispose();
});

const NOW = Date.UTC(2026, 10, 15);

describe('Redis unreachable', () => {
  it('quota, key lookup and account changes fail closed: 503 SERVICE_UNAVAILABLE with Retry-After, at once', async () => {
    const s = open();
    const a = await s.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: NOW });
    await redis.stop();
    for (const call of [() => s.consumeMonthly(a.id, 10, NOW), () => s.findAccountByKeyHash(generateKey().hash), () => s.regenerateKey(a.id, 'h', 'p', NOW, 60_000), () => s.getAccount(a.id)]) {
      const { ms, error } = await failure(call);
      expect(error.errorCode).toBe('SERVICE_UNAVAILABLE');
      expect(error.status).toBe(503);
      expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(ms).toBeLessThan(TIMEOUT + 200);
    }
    expect(await s.ping()).toBe(false);
    expect(logs.some((l) => String(l.msg).startsWith('redis unavailable'))).toBe(true);
  });

  it('the demo window falls back to this process\'s own buckets: still 5 per window, then refused', async () => {
    const s = open();
    await redis.stop();
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await s.hitWindow('demo:ip4:192.0.2.1', 5, 3_600_000, NOW + i));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false]);
  });

  it('after a restart (even a SIGKILL) the store answers again within seconds, with every answered count kept', async () => {
    const s = open();
    for (let i = 0; i < 3; i++) await s.consumeMonthly('acct_k', 10, NOW);
    await redis.stop();
    expect((await failure(() => s.consumeMonthly('acct_k', 10, NOW))).error.errorCode).toBe('SERVICE_UNAVAILABLE');
    await redis.restart();
    // Scripts are gone from the restarted server (NOSCRIPT): the store reloads them by itself.
    const recovery = await until(() => s.consumeMonthly('acct_k', 10, NOW));
    expect(recovery).toBeLessThan(3000);
    expect(await s.monthlyUsage('acct_k', NOW)).toBe(4);
  });
});

describe('Redis slow or hung', () => {
  it('a frozen server (SIGSTOP) costs each call at most the timeout, and the store recovers within seconds of SIGCONT', async () => {
    const s = open();
    await s.consumeMonthly('acct_f', 10, NOW);
    redis.freeze();
    const calls = await Promise.all(Array.from({ length: 20 }, () => failure(() => s.consumeMonthly('acct_f', 10, NOW))));
    for (const c of calls) {
      expect(c.error.errorCode).toBe('SERVICE_UNAVAILABLE');
      expect(c.ms).toBeLessThan(TIMEOUT + 250);
    }
    // Later calls while still frozen: bounded too (the stale link is replaced, the new dial times out).
    for (let i = 0; i < 3; i++) expect((await failure(() => s.findAccountByKeyHash('x'))).ms).toBeLessThan(TIMEOUT + 250);
    redis.thaw();
    expect(await until(() => s.consumeMonthly('acct_f', 10, NOW))).toBeLessThan(3000);
  });

  it('a count that ran late, after CLIENT PAUSE, while its caller was already told 503, is given back', async () => {
    const s = open();
    await s.consumeMonthly('acct_p', 10, NOW);
    redis.pause(TIMEOUT * 3, 'WRITE');
    const { error } = await failure(() => s.consumeMonthly('acct_p', 10, NOW));
    expect(error.errorCode).toBe('SERVICE_UNAVAILABLE');
    await Bun.sleep(TIMEOUT * 3 + 300);
    // Counted once the pause ended, then refunded: only the first (answered) call remains.
    expect(await s.monthlyUsage('acct_p', NOW)).toBe(1);
  });
});

describe('the demo window when Redis is slow, not down', () => {
  const IP = 'demo:ip4:192.0.2.9';

  it('with the default timeout, a reply held 1.5 s (CLIENT PAUSE WRITE) is waited for: 7 concurrent hits, exactly 5 allowed, all counted in Redis', async () => {
    const s = open('default', 'slow-demo:');
    await s.ping(); // a live link, as on a serving replica
    redis.pause(1500, 'WRITE');
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) => s.hitWindow(IP, 5, 3_600_000, NOW + i)));
    expect(performance.now() - t0).toBeGreaterThan(1200); // they did wait for the pause
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect(redis.cli('LLEN', `slow-demo:w:${IP}`)).toBe('5');
    // Another replica sees the same 5: nothing was counted only in this process.
    expect((await open('default', 'slow-demo:').hitWindow(IP, 5, 3_600_000, NOW + 10)).allowed).toBe(false);
  });

  it('a reply later than the timeout is a 503 (the hit may have run in Redis), never a count in the local bucket', async () => {
    const s = open(TIMEOUT, 'late-demo:');
    await s.ping();
    redis.pause(TIMEOUT * 3, 'WRITE');
    const { ms, error } = await failure(() => s.hitWindow(IP, 5, 3_600_000, NOW));
    expect(error.errorCode).toBe('SERVICE_UNAVAILABLE');
    expect(ms).toBeLessThan(TIMEOUT + 250);
    await Bun.sleep(TIMEOUT * 3);
    // Redis holds the late hit or not (its link may have been dropped first); either way Redis alone decides from here.
    const inRedis = Number(redis.cli('LLEN', `late-demo:w:${IP}`));
    expect(inRedis).toBeLessThanOrEqual(1);
    const after = [];
    for (let i = 1; i <= 6; i++) after.push((await s.hitWindow(IP, 5, 3_600_000, NOW + i)).allowed);
    expect(after.filter(Boolean)).toHaveLength(5 - inRedis);
    expect(redis.cli('LLEN', `late-demo:w:${IP}`)).toBe('5');
  });
});
