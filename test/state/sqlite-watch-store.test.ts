import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { tempDir } from '../support/temp-dir';
import { watchStoreContract } from './watch-store-contract';

watchStoreContract('SQLite', async () => new SqliteStateStore(':memory:'));

describe('a state file from before watchlist summaries', () => {
  it('gets the summary of every list at open, and the lists read back unchanged', async () => {
    const path = join(tempDir('old-watch'), 'state.sqlite');
    const old = new Database(path, { create: true });
    old.exec('CREATE TABLE watchlist (id TEXT PRIMARY KEY NOT NULL, account_id TEXT NOT NULL, has_webhook INTEGER NOT NULL, record TEXT NOT NULL)');
    const record = { id: 'wl_0000000000000001', account_id: 'acct_a', name: 'old', registry_ids: ['990000000001', '990000000002'], rule: null, webhook_url: null, webhook_secret: null, base_as_of: '2026-10-01', created_at: '2026-11-15T12:00:00.000Z', updated_at: '2026-11-15T12:00:00.000Z' };
    old.query('INSERT INTO watchlist VALUES (?, ?, 0, ?)').run(record.id, record.account_id, JSON.stringify(record));
    old.close();
    const store = new SqliteStateStore(path);
    try {
      const { registry_ids: _ids, ...rest } = record;
      expect(await store.watch.watchlistSummaries('acct_a')).toEqual([{ ...rest, registry_id_count: 2 }]);
      expect(await store.watch.getWatchlist(record.id)).toEqual(record);
    } finally {
      await store.close();
    }
  });
});
