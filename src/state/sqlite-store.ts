import { Database } from 'bun:sqlite';
import type { Tier } from '../tiers';
import type { Log } from '../log';
import type { Account, CountResult, IssueResult, RegenerateResult } from './model';
import { newAccountId, type StateStore } from './store';
import { BackgroundCheckpointer } from './checkpointer';
import { UsageLedger } from './usage-ledger';
import { WindowLimiter } from './window-limiter';
import { SqliteWatchStore } from './sqlite-watch-store';
import { AppError } from '../errors';
import { STORE_RETRY_AFTER_S } from './storage-error';

const DDL = `
CREATE TABLE IF NOT EXISTS account (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  subject TEXT NOT NULL,
  tier TEXT NOT NULL,
  monthly_limit INTEGER,
  created_at TEXT NOT NULL,
  key_hash TEXT UNIQUE,
  key_prefix TEXT,
  key_created_at TEXT,
  last_regenerated_at INTEGER
);
CREATE INDEX IF NOT EXISTS account_subject ON account(subject) WHERE subject <> '';
CREATE TABLE IF NOT EXISTS usage (
  account_id TEXT NOT NULL,
  month TEXT NOT NULL,
  calls INTEGER NOT NULL,
  PRIMARY KEY (account_id, month)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS heartbeat (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  at INTEGER NOT NULL
);
`;

type AccountRow = Omit<Account, 'tier'> & { tier: string };
/** How stale a cached key may be after another process (the admin CLI) changed accounts. */
const KEY_CACHE_CHECK_MS = 250;
const ACCOUNT_COLUMNS = 'id, name, subject, tier, monthly_limit, created_at, key_prefix, key_created_at';

/**
 * Embedded state in one SQLite file (WAL). Each counted call is committed before the response is
 * sent, so a 200 survives kill -9; bun:sqlite is synchronous, so check-and-count cannot interleave.
 */
export class SqliteStateStore implements StateStore {
  readonly kind = 'sqlite' as const;
  readonly watch: SqliteWatchStore;
  private readonly db: Database;
  private readonly windows = new WindowLimiter();
  private readonly ledger: UsageLedger;
  private readonly keyCache = new Map<string, Account>();
  private keyCacheCheckedAt = Number.NEGATIVE_INFINITY;
  private keyCacheVersion = -1;
  private readonly dataVersion;
  private readonly q;
  private checkpointer: BackgroundCheckpointer | null = null;
  /** When a counted call last failed because the store could not write (performance.now()). */
  private countFailedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly path: string) {
    this.db = new Database(path, { create: true, strict: true });
    // The busy timeout first: switching a fresh file to WAL takes a lock, and a second process starting
    // on the same state dir at that moment would otherwise fail at once ("database is locked").
    // NORMAL in WAL: a commit survives a process crash (it is in the OS's hands), at no fsync per call.
    this.db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    this.db.exec(DDL);
    this.ledger = new UsageLedger(this.db);
    this.watch = new SqliteWatchStore(this.db);
    this.dataVersion = this.db.prepare<{ data_version: number }, []>('PRAGMA data_version');
    this.q = {
      insert: this.db.prepare(`INSERT INTO account (id, name, subject, tier, monthly_limit, created_at) VALUES (?, ?, ?, ?, ?, ?)`),
      byId: this.db.prepare<AccountRow, [string]>(`SELECT ${ACCOUNT_COLUMNS} FROM account WHERE id = ?`),
      bySubject: this.db.prepare<AccountRow, [string]>(`SELECT ${ACCOUNT_COLUMNS} FROM account WHERE subject = ? AND subject <> '' ORDER BY created_at LIMIT 1`),
      byKey: this.db.prepare<AccountRow, [string]>(`SELECT ${ACCOUNT_COLUMNS} FROM account WHERE key_hash = ?`),
      all: this.db.prepare<AccountRow, []>(`SELECT ${ACCOUNT_COLUMNS} FROM account ORDER BY created_at, id`),
      setTier: this.db.prepare('UPDATE account SET tier = ? WHERE id = ?'),
      setLimit: this.db.prepare('UPDATE account SET monthly_limit = ? WHERE id = ?'),
      setKey: this.db.prepare('UPDATE account SET key_hash = ?, key_prefix = ?, key_created_at = ? WHERE id = ?'),
      revoke: this.db.prepare('UPDATE account SET key_hash = NULL, key_prefix = NULL, key_created_at = NULL WHERE id = ? AND key_hash IS NOT NULL'),
      regenInfo: this.db.prepare<{ key_hash: string | null; last_regenerated_at: number | null }, [string]>(
        'SELECT key_hash, last_regenerated_at FROM account WHERE id = ?',
      ),
      regen: this.db.prepare('UPDATE account SET key_hash = ?, key_prefix = ?, key_created_at = ?, last_regenerated_at = ? WHERE id = ?'),
    };
    // Every write of this store goes through q.*.run and may change an account: drop cached keys.
    for (const statement of Object.values(this.q)) {
      const run = statement.run.bind(statement);
      statement.run = ((...args: any[]) => {
        this.keyCache.clear();
        return (run as (...a: any[]) => ReturnType<typeof run>)(...args);
      }) as typeof statement.run;
    }
  }

  private toAccount(r: AccountRow | null): Account | null {
    return r ? { ...r, tier: r.tier as Tier } : null;
  }

  async createAccount(a: { name: string; subject: string; tier: Tier; monthlyLimit: number | null; now: number }): Promise<Account> {
    return this.insertAccount(a);
  }

  private insertAccount(a: { name: string; subject: string; tier: Tier; monthlyLimit: number | null; now: number }): Account {
    const id = newAccountId();
    this.q.insert.run(id, a.name, a.subject, a.tier, a.monthlyLimit, new Date(a.now).toISOString());
    return this.toAccount(this.q.byId.get(id))!;
  }

  async getAccount(id: string) {
    return this.toAccount(this.q.byId.get(id));
  }

  async findAccountBySubject(subject: string) {
    return this.toAccount(this.q.bySubject.get(subject));
  }

  async listAccounts() {
    return this.q.all.all().map((r) => this.toAccount(r)!);
  }

  async setTier(accountId: string, tier: Tier) {
    return this.q.setTier.run(tier, accountId).changes > 0;
  }

  async setMonthlyLimit(accountId: string, limit: number | null) {
    return this.q.setLimit.run(limit, accountId).changes > 0;
  }

  async setKey(accountId: string, keyHash: string, prefix: string, now: number) {
    this.q.setKey.run(keyHash, prefix, new Date(now).toISOString(), accountId);
  }

  /**
   * Key lookups run on every data call, and a SQLite read here costs several µs of lock handling,
   * so live keys are cached. The cache is dropped by every write of this process (below, in the
   * constructor) and whenever another process (the admin CLI) has committed, checked through
   * PRAGMA data_version at most every KEY_CACHE_CHECK_MS: a CLI revoke bites within that time,
   * an API regeneration at the very next call.
   */
  async findAccountByKeyHash(keyHash: string) {
    const t = performance.now();
    if (t - this.keyCacheCheckedAt >= KEY_CACHE_CHECK_MS) {
      this.keyCacheCheckedAt = t;
      const v = this.dataVersion.get()!.data_version;
      if (v !== this.keyCacheVersion) {
        this.keyCacheVersion = v;
        this.keyCache.clear();
      }
    }
    const cached = this.keyCache.get(keyHash);
    if (cached) return cached;
    const account = this.toAccount(this.q.byKey.get(keyHash));
    // Only hits are cached, and only so many: a flood of wrong keys cannot grow memory.
    if (account) {
      if (this.keyCache.size >= 100_000) this.keyCache.clear();
      this.keyCache.set(keyHash, account);
    }
    return account;
  }

  async revokeKey(accountId: string) {
    return this.q.revoke.run(accountId).changes > 0;
  }

  async regenerateKey(accountId: string, keyHash: string, prefix: string, now: number, throttleMs: number): Promise<RegenerateResult> {
    return this.db.transaction((): RegenerateResult => {
      const cur = this.q.regenInfo.get(accountId);
      if (!cur?.key_hash) return { ok: false, reason: 'no_key' };
      if (cur.last_regenerated_at !== null && now - cur.last_regenerated_at < throttleMs) {
        return { ok: false, reason: 'throttled', retryAfterSec: Math.max(1, Math.ceil((cur.last_regenerated_at + throttleMs - now) / 1000)) };
      }
      this.q.regen.run(keyHash, prefix, new Date(now).toISOString(), now, accountId);
      return { ok: true };
    }).immediate();
  }

  async issueFirstKey(a: { subject: string; name: string; tier: Tier; keyHash: string; prefix: string; now: number }): Promise<IssueResult> {
    return this.db.transaction((): IssueResult => {
      const found = this.toAccount(this.q.bySubject.get(a.subject));
      // key_prefix is set and cleared together with key_hash, so it tells whether a live key exists.
      if (found?.key_prefix) return { ok: false, reason: 'key_exists', account: found };
      const account = found ?? this.insertAccount({ name: a.name, subject: a.subject, tier: a.tier, monthlyLimit: null, now: a.now });
      this.q.setKey.run(a.keyHash, a.prefix, new Date(a.now).toISOString(), account.id);
      return { ok: true, account: this.toAccount(this.q.byId.get(account.id))!, created: !found };
    }).immediate();
  }

  consumeMonthly(accountId: string, limit: number, now: number): Promise<CountResult> {
    return this.ledger.consume(accountId, limit, now).catch((e: unknown) => {
      if (e instanceof AppError && e.errorCode === 'SERVICE_UNAVAILABLE') this.countFailedAt = performance.now();
      throw e;
    });
  }

  async refundMonthly(accountId: string, now: number) {
    await this.ledger.refund(accountId, now);
  }

  async monthlyUsage(accountId: string, now: number) {
    return this.ledger.usage(accountId, now);
  }

  async hitWindow(key: string, limit: number, windowMs: number, now: number) {
    return this.windows.hit(key, limit, windowMs, now);
  }

  /**
   * A real write, committed: taking the write lock alone succeeds on a full disk, where every
   * counted call then fails. One row, rewritten in place, so probes do not grow the file.
   */
  async ping() {
    // On a full disk some commits still fit (a WAL reused after a checkpoint) while others fail: a
    // counted call refused lately says not writable whatever the heartbeat managed.
    if (performance.now() - this.countFailedAt < STORE_RETRY_AFTER_S * 1000) return false;
    try {
      // Not through q: it changes no account, so it leaves the key cache alone.
      this.db.run('INSERT INTO heartbeat (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at', [Date.now()]);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * For the serving process: WAL checkpoints on a worker thread instead of inside a commit on the
   * event loop (checkpoint-worker.ts). The CLI's short-lived stores keep SQLite's own.
   */
  async checkpointInBackground(log: Log): Promise<void> {
    if (this.path === ':memory:' || this.checkpointer) return;
    this.checkpointer = await BackgroundCheckpointer.start(this.db, this.path, log);
  }

  async close() {
    await this.checkpointer?.stop();
    this.db.close();
  }
}
