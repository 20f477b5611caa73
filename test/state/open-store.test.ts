import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeConfig } from '../../src/config';
import { openStateStore } from '../../src/state/open-store';
import { RedisStateStore } from '../../src/state/redis-store';
import { RedisServer } from '../support/redis-server';
import { tempDir } from '../support/temp-dir';

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await RedisServer.start();
  dir = tempDir('open-store');
}, 20_000);
afterAll(async () => {
  await redis.dispose();
});

describe('openStateStore', () => {
  it('without a Redis URL: SQLite in the state dir', async () => {
    const store = await openStateStore(makeConfig({ stateDir: join(dir, 'embedded') }));
    expect(store.kind).toBe('sqlite');
    expect(existsSync(join(dir, 'embedded', 'state.sqlite'))).toBe(true);
    await store.close();
  });

  it('with a Redis URL: Redis, on the Redis clock, under the configured prefix, and no state file', async () => {
    const store = await openStateStore(makeConfig({ stateDir: join(dir, 'unused'), redisUrl: redis.url, redisPrefix: 'open-test:' }), { log: () => undefined });
    expect(store.kind).toBe('redis');
    expect((store as RedisStateStore).clock).toBe('redis');
    const a = await store.createAccount({ name: '', subject: '', tier: 'free', monthlyLimit: null, now: Date.now() });
    expect(redis.cli('EXISTS', `open-test:a:${a.id}`)).toBe('1');
    expect(existsSync(join(dir, 'unused', 'state.sqlite'))).toBe(false);
    await store.close();
  });

  it('an unreachable Redis does not stop it: the store opens, logs a warning and reports not ready', async () => {
    const logs: Record<string, unknown>[] = [];
    const store = await openStateStore(makeConfig({ redisUrl: 'redis://127.0.0.1:1', redisTimeoutMs: 200 }), { log: (e) => void logs.push(e) });
    expect(await store.ping()).toBe(false);
    expect(logs.map((l) => l.level)).toContain('warn');
    await store.close();
  });
});
