import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { tempDir } from '../support/temp-dir';

// Another process holding the state file's lock while a store opens it (two services started at once
// on a fresh state dir): switching the file to WAL needs that lock, so the open must wait for it.
const HOLDER = `
import { Database } from 'bun:sqlite';
const db = new Database(process.argv[2], { create: true });
db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (x)');
console.log('held');
Bun.sleepSync(700);
db.exec('COMMIT');
db.close();
`;

describe('a state file another process holds locked at open', () => {
  it('the store waits for the lock (busy timeout before the WAL switch) instead of failing with "database is locked"', async () => {
    const dir = tempDir('state-lock');
    const path = join(dir, 'state.sqlite');
    const script = join(dir, 'holder.ts');
    await Bun.write(script, HOLDER);
    const holder = Bun.spawn([process.execPath, script, path], { stdout: 'pipe', stderr: 'inherit' });
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('held');
    const t0 = performance.now();
    const store = new SqliteStateStore(path);
    // it waited for the holder's commit, then opened in WAL mode
    expect(performance.now() - t0).toBeGreaterThan(100);
    expect(await holder.exited).toBe(0);
    await store.close();
  }, 30_000);
});
