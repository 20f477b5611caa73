import { afterAll, beforeAll } from 'bun:test';
import { RedisStateStore } from '../../src/state/redis-store';
import { RedisServer } from '../support/redis-server';
import { watchStoreContract } from './watch-store-contract';

let redis: RedisServer;
let n = 0;
beforeAll(async () => {
  redis = await RedisServer.start();
}, 20_000);
afterAll(async () => {
  await redis.dispose();
});

watchStoreContract('Redis', async () => new RedisStateStore({ url: redis.url, prefix: `watch${++n}:`, clock: 'caller' }));
