import { afterAll, beforeAll } from 'bun:test';
import { RedisStateStore } from '../../src/state/redis-store';
import { RedisServer } from '../support/redis-server';
import { storeContract } from './store-contract';
import { watchStoreContract } from './watch-store-contract';

let redis: RedisServer;
let n = 0;
beforeAll(async () => {
  redis = await RedisServer.start();
}, 20_000);
afterAll(async () => {
  await redis.dispose();
});

// One Redis for both contracts. The caller's clock, so the same fixed instants drive both stores; each test gets its own namespace.
storeContract('Redis', async () => new RedisStateStore({ url: redis.url, prefix: `contract${++n}:`, clock: 'caller' }));
watchStoreContract('Redis', async () => new RedisStateStore({ url: redis.url, prefix: `watch${++n}:`, clock: 'caller' }));
