import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { generateKey } from '../../src/access/key-format';
import { RedisStateStore } from '../../src/state/redis-store';
import { cli, tempIndex } from '../support/process';
import { RedisServer } from '../support/redis-server';
import { JWT_SECRET, burst, cliKey, fakeTimeEnv, startReplicas, tally, type Replica } from './cluster';

// Three real `serve` processes on loopback ports sharing one real redis-server.
const LOOKUP = '/api/v1/facility/990000000001';
const DEMO = '/api/v1/demo/facility?address=100%20Main%20St%2C%20Springfield%2C%20IL%2062701';

let redis: RedisServer;
let replicas: Replica[] = [];
let index: { dir: string; indexPath: string };
let store: RedisStateStore;

beforeAll(async () => {
  redis = await RedisServer.start();
  index = tempIndex();
  replicas = await startReplicas(3, { redisUrl: redis.url, indexPath: index.indexPath, stateDir: index.dir });
  // The test's own view of the shared state: same namespace and clock as the replicas.
  store = new RedisStateStore({ url: redis.url, clock: 'redis' });
}, 60_000);

afterAll(async () => {
  await store?.close();
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.dispose();
  if (index) rmSync(index.dir, { recursive: true, force: true });
});

async function freeKey() {
  const a = await store.createAccount({ name: 'replica test', subject: '', tier: 'free', monthlyLimit: null, now: Date.now() });
  const k = generateKey();
  await store.setKey(a.id, k.hash, k.prefix, Date.now());
  return { key: k.key, accountId: a.id };
}

describe('replicas sharing Redis', () => {
  it('a key made by the keys CLI with --redis-url works on every replica', async () => {
    const { key } = cliKey(redis.url, 'starter');
    for (const r of replicas) expect((await fetch(`${r.base}${LOOKUP}`, { headers: { 'x-api-key': key } })).status).toBe(200);
  });

  it('in each of 20 rounds, 300 concurrent calls of a fresh Free key spread over 3 replicas: exactly 10 get 200, 290 get 402, none 5xx', async () => {
    const rounds: Record<number, number>[] = [];
    for (let round = 0; round < 20; round++) {
      const k = await freeKey();
      const statuses = await burst(replicas, 300, () => LOOKUP, () => ({ 'x-api-key': k.key }));
      rounds.push(tally(statuses));
      expect(await store.monthlyUsage(k.accountId, Date.now())).toBe(10);
    }
    expect(rounds).toEqual(Array.from({ length: 20 }, () => ({ 200: 10, 402: 290 })));
  });

  it('100 concurrent demo calls from one IP spread over 3 replicas: exactly 5 succeed, 95 get 429', async () => {
    // Each round is a different client IP (X-Forwarded-For from the trusted loopback proxy).
    for (const ip of ['198.51.100.7', '198.51.100.8', '203.0.113.9']) {
      const statuses = await burst(replicas, 100, () => DEMO, () => ({ 'x-forwarded-for': ip }));
      expect(tally(statuses)).toEqual({ 200: 5, 429: 95 });
    }
  });

  it('while Redis is slow (every write held 1.5 s by CLIENT PAUSE), 100 concurrent demo calls from one IP over 3 replicas: still exactly 5 succeed', async () => {
    // Live links first, as on replicas that have been serving (a link dialled during the pause is another matter: docs/replicas.md).
    for (const [i, r] of replicas.entries()) expect((await fetch(`${r.base}${DEMO}`, { headers: { 'x-forwarded-for': `198.51.100.${50 + i}` } })).status).toBe(200);
    redis.pause(1500, 'WRITE');
    const t0 = performance.now();
    const statuses = await burst(replicas, 100, () => DEMO, () => ({ 'x-forwarded-for': '203.0.113.77' }));
    expect(performance.now() - t0).toBeGreaterThan(1200); // the calls did wait for Redis
    expect(tally(statuses)).toEqual({ 200: 5, 429: 95 });
  });

  it('a key regenerated through the account API on replica A answers 401 on replica B at its very next call', async () => {
    const [a, b, c] = replicas as [Replica, Replica, Replica];
    const t = cli(['keys', 'token', '--subject', `idp|replica-${Date.now()}`], { FCS_JWT_SECRET: JWT_SECRET });
    expect(t.code).toBe(0);
    const auth = { authorization: `Bearer ${t.stdout.trim()}` };
    const issued = await fetch(`${a.base}/api/v1/account/key`, { method: 'POST', headers: auth });
    expect(issued.status).toBe(201);
    const oldKey: string = ((await issued.json()) as any).data.key;
    expect((await fetch(`${b.base}${LOOKUP}`, { headers: { 'x-api-key': oldKey } })).status).toBe(200);

    const regen = await fetch(`${a.base}/api/v1/account/key/regenerate`, { method: 'POST', headers: auth });
    expect(regen.status).toBe(200);
    const newKey: string = ((await regen.json()) as any).data.key;
    expect((await fetch(`${b.base}${LOOKUP}`, { headers: { 'x-api-key': oldKey } })).status).toBe(401);
    expect((await fetch(`${c.base}${LOOKUP}`, { headers: { 'x-api-key': newKey } })).status).toBe(200);
    // The regeneration throttle is shared too: a second regeneration on replica C is refused.
    const again = await fetch(`${c.base}/api/v1/account/key/regenerate`, { method: 'POST', headers: auth });
    expect(again.status).toBe(429);
    expect(((await again.json()) as any).error.code).toBe('REGENERATE_THROTTLED');
  });

  it('a key revoked with the CLI answers 401 on every replica at the next call', async () => {
    const k = cliKey(redis.url, 'free');
    expect((await fetch(`${replicas[0]!.base}${LOOKUP}`, { headers: { 'x-api-key': k.key } })).status).toBe(200);
    expect(cli(['keys', 'revoke', k.account_id, '--redis-url', redis.url]).code).toBe(0);
    for (const r of replicas) expect((await fetch(`${r.base}${LOOKUP}`, { headers: { 'x-api-key': k.key } })).status).toBe(401);
  });
});

describe('replicas whose clocks disagree', () => {
  let skewed: Replica[] = [];
  afterAll(async () => {
    await Promise.all(skewed.map((r) => r.stop()));
  });

  it('a replica running 40 days ahead (another calendar month) still shares the one monthly count: exactly 10 succeed', async () => {
    skewed = await startReplicas(1, { redisUrl: redis.url, indexPath: index.indexPath, stateDir: `${index.dir}/skewed`, env: fakeTimeEnv('+40d') });
    const mixed = [replicas[0]!, skewed[0]!];
    const k = await freeKey();
    const statuses = await burst(mixed, 300, () => LOOKUP, () => ({ 'x-api-key': k.key }));
    expect(tally(statuses)).toEqual({ 200: 10, 402: 290 });
  });
});
