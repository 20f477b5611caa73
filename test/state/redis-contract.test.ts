import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
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

describe('Redis lists written before summaries were kept', () => {
  it('are summarised from the whole list', async () => {
    const prefix = `old${++n}:`;
    const record = { id: 'wl_0000000000000001', account_id: 'acct_a', name: 'old', registry_ids: ['990000000001', '990000000002'], rule: null, webhook_url: null, webhook_secret: null, base_as_of: '2026-10-01', created_at: '2026-11-15T12:00:00.000Z', updated_at: '2026-11-15T12:00:00.000Z' };
    redis.cli('SET', `${prefix}wl:${record.id}`, JSON.stringify(record));
    redis.cli('ZADD', `${prefix}wla:acct_a`, '1', record.id);
    const store = new RedisStateStore({ url: redis.url, prefix, clock: 'caller' });
    try {
      const { registry_ids: _ids, ...rest } = record;
      expect(await store.watch.watchlistSummaries('acct_a')).toEqual([{ ...rest, registry_id_count: 2 }]);
    } finally {
      await store.close();
    }
  });
});
