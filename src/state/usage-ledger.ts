import type { Database } from 'bun:sqlite';
import type { CountResult } from './model';
import { monthOf } from './store';
import { storeUnavailable } from './storage-error';

function tallyKey(accountId: string, month: string): string {
  return `${accountId}|${month}`;
}

/**
 * Monthly call counts with group commit. The check-and-count is decided synchronously against an
 * in-memory tally (so concurrent calls can never overshoot), and every caller waits until the
 * batch holding its increment is committed: a call answered 200 is on disk first (WAL, so it
 * survives kill -9), at one transaction per event-loop turn instead of one per call.
 * The tally assumes this process is the only writer of the state file (docs/operations.md).
 */
export class UsageLedger {
  private readonly tally = new Map<string, number>();
  private pending = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private readonly read;
  private readonly add;

  constructor(private readonly db: Database) {
    this.read = db.prepare<{ calls: number }, [string, string]>('SELECT calls FROM usage WHERE account_id = ? AND month = ?');
    this.add = db.prepare(
      'INSERT INTO usage (account_id, month, calls) VALUES (?, ?, ?) ON CONFLICT (account_id, month) DO UPDATE SET calls = max(0, calls + excluded.calls)',
    );
  }

  private used(k: string, accountId: string, month: string): number {
    let n = this.tally.get(k);
    if (n === undefined) {
      n = this.read.get(accountId, month)?.calls ?? 0;
      this.tally.set(k, n);
    }
    return n;
  }

  private record(k: string, accountId: string, month: string, delta: number): Promise<void> {
    this.tally.set(k, this.used(k, accountId, month) + delta);
    this.pending.set(k, (this.pending.get(k) ?? 0) + delta);
    this.flushing ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        const batch = this.pending;
        this.pending = new Map();
        this.flushing = null;
        try {
          this.db.transaction(() => {
            for (const [key, d] of batch) {
              const [acct, m] = key.split('|') as [string, string];
              this.add.run(acct, m, d);
            }
          }).immediate();
          resolve();
        } catch (e) {
          // Not durable: forget the tally so the next call re-reads the truth from disk.
          // A store that cannot write (disk full) is a 503 to every caller of the batch, with nothing counted.
          for (const key of batch.keys()) this.tally.delete(key);
          reject(storeUnavailable(e) ?? e);
        }
      }),
    );
    return this.flushing;
  }

  // Not `async`: every counted call passes here, and the only wait is for the batch's commit.
  consume(accountId: string, limit: number, now: number): Promise<CountResult> {
    const { month, resetAt } = monthOf(now);
    const k = tallyKey(accountId, month);
    const used = this.used(k, accountId, month);
    if (used >= limit) return Promise.resolve({ allowed: false, used, limit, resetAt });
    const result: CountResult = { allowed: true, used: used + 1, limit, resetAt };
    return this.record(k, accountId, month, 1).then(() => result);
  }

  async refund(accountId: string, now: number): Promise<void> {
    const { month } = monthOf(now);
    const k = tallyKey(accountId, month);
    if (this.used(k, accountId, month) > 0) await this.record(k, accountId, month, -1);
  }

  usage(accountId: string, now: number): number {
    const { month } = monthOf(now);
    return this.used(tallyKey(accountId, month), accountId, month);
  }
}
