import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundCheckpointer } from '../../src/state/checkpointer';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { startServer } from '../support/process';
import { tempDir, tempPath } from '../support/temp-dir';

const fresh = () => tempPath('checkpoint', 'state.sqlite');

/** Main-file size after `n` committed account inserts and a pause longer than the worker's interval. */
async function mainFileGrowth(store: SqliteStateStore, path: string, n: number): Promise<number> {
  const before = statSync(path).size;
  for (let i = 0; i < n; i++) await store.createAccount({ name: `a${i}`.repeat(20), subject: `s${i}`, tier: 'free', monthlyLimit: null, now: 0 });
  await Bun.sleep(1500);
  return statSync(path).size - before;
}

describe('WAL checkpoints of the serving state store', () => {
  // 100 commits (a few WAL pages each) stay below SQLite's own 1,000-page trigger: only the worker moves them into the main file.
  it('a plain store leaves commits in the WAL until the automatic threshold', async () => {
    const path = fresh();
    const store = new SqliteStateStore(path);
    expect(await mainFileGrowth(store, path, 100)).toBe(0);
    await store.close();
  });

  it('a serving store has them checkpointed into the main file by the worker within a second', async () => {
    const path = fresh();
    const store = new SqliteStateStore(path);
    const logs: Record<string, unknown>[] = [];
    await store.checkpointInBackground((e) => void logs.push(e));
    expect(await mainFileGrowth(store, path, 100)).toBeGreaterThan(0);
    expect(logs).toEqual([]);
    await store.close();
    const reopened = new Database(path, { readonly: true });
    expect((reopened.query('SELECT count(*) AS n FROM account').get() as { n: number }).n).toBe(100);
  });

  it('`serve` starts the worker (no fallback warning) and a SIGTERM right after its "listening" line is a graceful stop (exit 0)', async () => {
    const dir = tempDir('checkpoint-serve');
    const server = await startServer(['--state-dir', dir]);
    expect(server.lines.filter((l) => l.level === 'warn')).toEqual([]);
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('when the worker cannot open the file, the connection keeps SQLite\'s own checkpoints and says so', async () => {
    const db = new Database(':memory:');
    const logs: Record<string, unknown>[] = [];
    const c = await BackgroundCheckpointer.start(db, join(tmpdir(), 'fcs-no-such-dir', 'state.sqlite'), (e) => void logs.push(e));
    expect(c).toBeNull();
    expect((db.query('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint).toBe(1000);
    expect(logs[0]).toMatchObject({ level: 'warn' });
  });
});
