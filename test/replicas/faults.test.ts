import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { tempIndex } from '../support/process';
import { RedisServer } from '../support/redis-server';
import { cliKey, startReplicas, type Replica } from './cluster';

// The fault policy over HTTP, on two real replicas (docs/replicas.md).
const LOOKUP = '/api/v1/facility/990000000001';
const DEMO = '/api/v1/demo/facility?address=100%20Main%20St%2C%20Springfield%2C%20IL%2062701';
const TIMEOUT = 300;

let redis: RedisServer;
let replicas: Replica[] = [];
let index: { dir: string; indexPath: string };
let key: string;

beforeAll(async () => {
  redis = await RedisServer.start({ durable: true });
  index = tempIndex();
  replicas = await startReplicas(2, { redisUrl: redis.url, indexPath: index.indexPath, stateDir: index.dir, env: { FCS_REDIS_TIMEOUT_MS: String(TIMEOUT) } });
  key = cliKey(redis.url, 'starter').key;
}, 60_000);
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.dispose();
  if (index) rmSync(index.dir, { recursive: true, force: true });
});

async function timed(url: string, init?: RequestInit) {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const body = await res.json().catch(() => null);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, ms: performance.now() - t0 };
}

/** Polls every replica until `path` answers 200 on each; returns the ms it took. */
async function recoveryMs(path: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  for (const r of replicas) {
    while ((await fetch(`${r.base}${path}`, { headers })).status !== 200) {
      if (performance.now() - t0 > 10_000) throw new Error(`${r.base} did not recover`);
      await Bun.sleep(50);
    }
  }
  return performance.now() - t0;
}

describe('replicas when Redis fails', () => {
  it('Redis down: keyed calls get 503 SERVICE_UNAVAILABLE with Retry-After at once, /readyz says 503, the demo keeps its per-replica limit', async () => {
    await redis.stop();
    for (const r of replicas) {
      const res = await timed(`${r.base}${LOOKUP}`, { headers: { 'x-api-key': key } });
      expect(res).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', status: 503 } } });
      expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(res.ms).toBeLessThan(TIMEOUT + 500);
      expect((await fetch(`${r.base}/readyz`)).status).toBe(503);
    }
    // Local buckets: 5 per IP on this replica, then 429; never a 5xx.
    const demo = [];
    for (let i = 0; i < 7; i++) demo.push((await fetch(`${replicas[0]!.base}${DEMO}`, { headers: { 'x-forwarded-for': '192.0.2.44' } })).status);
    expect(demo).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('Redis back (same port, data kept): every replica serves the key again within seconds', async () => {
    await redis.restart();
    expect(await recoveryMs(LOOKUP, { 'x-api-key': key })).toBeLessThan(3000);
    for (const r of replicas) expect((await fetch(`${r.base}/readyz`)).status).toBe(200);
  });

  it('Redis hung (SIGSTOP): no request hangs, each is answered 503 within the timeout; recovery within seconds of SIGCONT', async () => {
    redis.freeze();
    try {
      const results = await Promise.all(replicas.flatMap((r) => Array.from({ length: 10 }, () => timed(`${r.base}${LOOKUP}`, { headers: { 'x-api-key': key } }))));
      for (const res of results) {
        expect(res.status).toBe(503);
        expect(res.ms).toBeLessThan(TIMEOUT + 700);
      }
    } finally {
      redis.thaw();
    }
    expect(await recoveryMs(LOOKUP, { 'x-api-key': key })).toBeLessThan(3000);
  });
});
