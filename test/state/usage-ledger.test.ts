import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { SqliteStateStore } from '../../src/state/sqlite-store';
import { FIXED_NOW } from '../helpers';
import { tempPath } from '../support/temp-dir';

const onDisk = (path: string, account: string) =>
  (new Database(path, { readonly: true }).query('SELECT calls FROM usage WHERE account_id = ?').get(account) as { calls: number } | null)?.calls ?? 0;

describe('usage ledger (group commit)', () => {
  it('every allowed call is committed to the file before consumeMonthly resolves', async () => {
    const path = tempPath('ledger', 'state.sqlite');
    const store = new SqliteStateStore(path);
    for (let i = 1; i <= 5; i++) {
      const r = await store.consumeMonthly('acct_a', 100, FIXED_NOW);
      expect(r).toMatchObject({ allowed: true, used: i });
      expect(onDisk(path, 'acct_a')).toBe(i);
    }
  });

  it('a burst of 200 concurrent calls against a cap of 37 allows exactly 37 and stores 37', async () => {
    const path = tempPath('ledger', 'state.sqlite');
    const store = new SqliteStateStore(path);
    const results = await Promise.all(Array.from({ length: 200 }, () => store.consumeMonthly('acct_b', 37, FIXED_NOW)));
    expect(results.filter((r) => r.allowed).length).toBe(37);
    expect(new Set(results.filter((r) => r.allowed).map((r) => r.used)).size).toBe(37);
    expect(onDisk(path, 'acct_b')).toBe(37);
  });

  it('a refund gives one call back, never below zero', async () => {
    const store = new SqliteStateStore(':memory:');
    await store.consumeMonthly('acct_c', 10, FIXED_NOW);
    await store.refundMonthly('acct_c', FIXED_NOW);
    await store.refundMonthly('acct_c', FIXED_NOW);
    expect(await store.monthlyUsage('acct_c', FIXED_NOW)).toBe(0);
  });
});
