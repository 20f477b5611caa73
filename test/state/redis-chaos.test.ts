import { afterAll, beforeAll, expect, it } from 'bun:test';
import { generateKey } from '../../src/access/key-format';
import { AppError } from '../../src/errors';
import { RedisStateStore } from '../../src/state/redis-store';
import { RedisServer } from '../support/redis-server';

/**
 * Bun's Redis client has had reconnect and reply-mixup bugs, so: three stores (as three replicas
 * would) under steady concurrent load while redis-server is SIGKILLed and restarted, paused with
 * CLIENT PAUSE and frozen with SIGSTOP. Every answer is checked against a reference model: a lookup
 * names the account of the key asked about (never another, never none, the data being durable); a
 * capped account is never allowed past its cap; an uncapped account's final count equals the calls
 * answered "allowed" plus at most the calls whose fate was lost with a killed connection.
 */
const NOW = Date.UTC(2026, 10, 15);
const CAP = 25;
let redis: RedisServer;
const stores: RedisStateStore[] = [];

beforeAll(async () => {
  redis = await RedisServer.start({ durable: true });
  for (let i = 0; i < 3; i++) stores.push(new RedisStateStore({ url: redis.url, prefix: 'chaos:', clock: 'caller', timeoutMs: 250, retryDelayMs: 100 }));
}, 20_000);
afterAll(async () => {
  for (const s of stores) await s.close();
  await redis.dispose();
});

/**
 * A read after the chaos, retried while it answers 503: with a 250 ms reply limit, a loaded machine
 * can time out one read, and the counts are what the test judges here, not availability.
 */
async function afterFaults<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (e) {
      if (attempt >= 20 || !(e instanceof AppError) || e.errorCode !== 'SERVICE_UNAVAILABLE') throw e;
      await Bun.sleep(100);
    }
  }
}

type Acct = { id: string; hash: string; limit: number; allowed: number; unavailable: number };

it('answers stay true to the model through kills, restarts, pauses and freezes, and service resumes after each', async () => {
  const accounts: Acct[] = [];
  for (let i = 0; i < 12; i++) {
    const a = await stores[0]!.createAccount({ name: `c${i}`, subject: '', tier: 'free', monthlyLimit: null, now: NOW });
    const k = generateKey();
    await stores[0]!.setKey(a.id, k.hash, k.prefix, NOW);
    accounts.push({ id: a.id, hash: k.hash, limit: i < 6 ? CAP : 1_000_000, allowed: 0, unavailable: 0 });
  }
  const wrong: string[] = [];
  const outcomes = { ok: 0, unavailable: 0 };
  let stop = false;
  let lastOkAt = 0;

  async function worker(store: RedisStateStore, seed: number) {
    for (let i = seed; !stop; i++) {
      const a = accounts[i % accounts.length]!;
      try {
        const found = await store.findAccountByKeyHash(a.hash);
        if (found?.id !== a.id) wrong.push(`key of ${a.id} answered ${found?.id ?? 'null'}`);
        const r = await store.consumeMonthly(a.id, a.limit, NOW);
        if (r.allowed) a.allowed++;
        if (r.used > a.limit) wrong.push(`${a.id} used ${r.used} > ${a.limit}`);
        outcomes.ok++;
        lastOkAt = performance.now();
      } catch (e) {
        if (!(e instanceof AppError) || e.errorCode !== 'SERVICE_UNAVAILABLE') wrong.push(`unexpected ${String(e)}`);
        outcomes.unavailable++;
        a.unavailable++;
        await Bun.sleep(5);
      }
      if (i % 8 === 0) await Bun.sleep(1);
    }
  }

  const recoveries: number[] = [];
  async function recovered(since: number) {
    while (lastOkAt <= since) await Bun.sleep(20);
    recoveries.push(lastOkAt - since);
  }
  async function chaos() {
    await Bun.sleep(700);
    await redis.stop(); // SIGKILL
    await Bun.sleep(400);
    await redis.restart();
    await recovered(performance.now());
    await Bun.sleep(700);
    redis.pause(700);
    await Bun.sleep(700);
    await recovered(performance.now());
    await Bun.sleep(700);
    redis.freeze();
    await Bun.sleep(900);
    redis.thaw();
    await recovered(performance.now());
    await Bun.sleep(700);
    await redis.restart();
    await recovered(performance.now());
    await Bun.sleep(700);
  }

  const workers = stores.flatMap((s, si) => Array.from({ length: 8 }, (_, w) => worker(s, si * 8 + w)));
  await chaos();
  stop = true;
  await Promise.all(workers);
  await Bun.sleep(600); // late replies and their refunds settle

  expect(wrong).toEqual([]);
  expect(outcomes.unavailable).toBeGreaterThan(0); // the faults did bite
  expect(outcomes.ok).toBeGreaterThan(500);
  for (const r of recoveries) expect(r).toBeLessThan(3000);
  for (const a of accounts) {
    const used = await afterFaults(() => stores[1]!.monthlyUsage(a.id, NOW));
    if (a.limit === CAP) {
      expect(a.allowed).toBeLessThanOrEqual(CAP);
      expect(used).toBeLessThanOrEqual(CAP);
    }
    expect(used).toBeGreaterThanOrEqual(a.allowed);
    expect(used - a.allowed).toBeLessThanOrEqual(a.unavailable);
  }
}, 30_000);
