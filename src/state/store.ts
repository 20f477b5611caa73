import type { Tier } from '../tiers';
import type { Account, CountResult, IssueResult, RegenerateResult } from './model';
import type { WatchStore } from './watch-store';

/**
 * Everything mutable the service keeps: accounts, key hashes, monthly usage, rolling-window limits.
 * Two implementations: SQLite (embedded, default) and Redis (shared by replicas). Every
 * check-and-count is one atomic operation, so concurrent calls can never overshoot a cap.
 * `now` is passed in (epoch ms) so tests can fix the clock; the Redis store may use server time.
 */
export interface StateStore {
  readonly kind: 'sqlite' | 'redis';
  /** Watchlists and the webhook outbox, in the same file or Redis (watch-store.ts). */
  readonly watch: WatchStore;

  createAccount(a: { name: string; subject: string; tier: Tier; monthlyLimit: number | null; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountBySubject(subject: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  setTier(accountId: string, tier: Tier): Promise<boolean>;
  setMonthlyLimit(accountId: string, limit: number | null): Promise<boolean>;

  /** Installs a key (hash + display prefix) as the account's only live key. */
  setKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<void>;
  /** Account owning a live key with this SHA-256 hash. */
  findAccountByKeyHash(keyHash: string): Promise<Account | null>;
  /** Kills the account's live key at once. */
  revokeKey(accountId: string): Promise<boolean>;
  /** Atomically: no key yet -> no_key; last regeneration < throttleMs ago -> throttled; else swap keys. */
  regenerateKey(accountId: string, keyHash: string, prefix: string, now: number, throttleMs: number): Promise<RegenerateResult>;
  /**
   * Atomically (account API sign-up, so two concurrent first calls cannot make two accounts or two
   * keys): find the account of `subject`, creating it with `tier` when there is none; if it has a
   * live key -> key_exists; else install this key. Does not touch the regeneration throttle.
   */
  issueFirstKey(a: { subject: string; name: string; tier: Tier; keyHash: string; prefix: string; now: number }): Promise<IssueResult>;

  /** Counts one call in the calendar month (UTC) of `now` unless `limit` is reached. */
  consumeMonthly(accountId: string, limit: number, now: number): Promise<CountResult>;
  /** Gives back a call counted for a request that then failed on our side (5xx). */
  refundMonthly(accountId: string, now: number): Promise<void>;
  monthlyUsage(accountId: string, now: number): Promise<number>;

  /** Rolling-window limiter (demo per-IP): at most `limit` hits per `windowMs` per key. */
  hitWindow(key: string, limit: number, windowMs: number, now: number): Promise<CountResult>;

  /** True when writes are possible (for /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export type MonthWindow = { month: string; startsAt: number; resetAt: number; seconds: number };

// Every counted call asks for its month; the answer only changes at a month boundary (or when a
// test's clock jumps), so the last one is kept.
let lastMonth: MonthWindow = { month: '', startsAt: 0, resetAt: 0, seconds: 0 };

/** UTC calendar month of an instant: `YYYY-MM`, when it began, when the next one begins, its length in seconds. */
export function monthOf(now: number): MonthWindow {
  if (now >= lastMonth.startsAt && now < lastMonth.resetAt) return lastMonth;
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const startsAt = Date.UTC(y, m, 1);
  const resetAt = Date.UTC(y, m + 1, 1);
  lastMonth = { month: `${y}-${String(m + 1).padStart(2, '0')}`, startsAt, resetAt, seconds: (resetAt - startsAt) / 1000 };
  return lastMonth;
}

/** A new account id: `acct_` + 16 hex characters (64 random bits), the same in every store. */
export function newAccountId(): string {
  return `acct_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}
