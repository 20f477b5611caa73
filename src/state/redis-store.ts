import type { Tier } from '../tiers';
import type { Log } from '../log';
import type { Account, CountResult, IssueResult, RegenerateResult } from './model';
import { ACCOUNT_FIELDS, accountOf } from './redis/account-codec';
import { RedisConnection, RedisUnreachable, unavailable } from './redis/connection';
import { SCRIPTS, type ScriptName } from './redis/scripts';
import { newAccountId, type StateStore } from './store';
import { WindowLimiter } from './window-limiter';
import { RedisWatchStore } from './redis-watch-store';

export type RedisStoreOptions = {
  url: string;
  /** Namespace of every key, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  /**
   * Whose clock decides months, rolling windows and the regeneration throttle. 'redis' (default,
   * production): the Redis server's TIME, so replicas with skewed clocks agree. 'caller': the `now`
   * argument, so tests can fix the clock exactly as with the SQLite store.
   */
  clock?: 'redis' | 'caller';
  /** Longest wait for a reply (default 10 s), and for a connection (default the lesser of it and 1 s). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  retryDelayMs?: number;
  log?: Log;
};

/**
 * Shared state for replicas: accounts, key hashes, monthly usage and rolling windows in Redis.
 * Every check-and-count is one Lua script (atomic on the server); nothing is cached locally, so a
 * revoked or regenerated key is dead on every replica at its next call. Fault policy (docs/replicas.md):
 * Redis unreachable, or no reply within `timeoutMs` -> 503 SERVICE_UNAVAILABLE for accounts and
 * quotas (fail closed); rolling windows (demo per-IP) fall back to this process's own buckets only
 * when Redis is unreachable (the hit cannot have been counted there), else 503 too.
 */
export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  readonly watch: RedisWatchStore;
  readonly clock: 'redis' | 'caller';
  private readonly ns: string;
  private readonly conn: RedisConnection;
  private readonly log: Log;
  private readonly localWindows = new WindowLimiter();
  private nonce = 0;

  constructor(opts: RedisStoreOptions) {
    this.ns = opts.prefix ?? 'fcs:';
    this.clock = opts.clock ?? 'redis';
    this.log = opts.log ?? (() => undefined);
    const timeoutMs = opts.timeoutMs ?? 10_000;
    this.conn = new RedisConnection(opts.url, {
      timeoutMs,
      connectTimeoutMs: opts.connectTimeoutMs ?? Math.min(timeoutMs, 1000),
      retryDelayMs: opts.retryDelayMs ?? 250,
      log: this.log,
    });
    this.watch = new RedisWatchStore(this.conn, this.ns);
  }

  async createAccount(a: { name: string; subject: string; tier: Tier; monthlyLimit: number | null; now: number }): Promise<Account> {
    const id = newAccountId();
    await this.run('createAccount', id, [a.name, a.subject, a.tier, a.monthlyLimit === null ? '' : String(a.monthlyLimit), iso(a.now), String(a.now)]);
    return (await this.getAccount(id))!;
  }

  async getAccount(id: string) {
    return accountOf(await this.conn.send('HMGET', [`${this.ns}a:${id}`, ...ACCOUNT_FIELDS]))?.account ?? null;
  }

  async findAccountBySubject(subject: string) {
    if (subject === '') return null;
    const id = await this.conn.send('GET', [`${this.ns}s:${subject}`]);
    return typeof id === 'string' ? this.getAccount(id) : null;
  }

  async listAccounts() {
    const ids: string[] = await this.conn.send('ZRANGE', [`${this.ns}accounts`, '0', '-1']);
    const accounts = await Promise.all(ids.map((id) => this.getAccount(id)));
    return accounts.filter((a): a is Account => a !== null);
  }

  async setTier(accountId: string, tier: Tier) {
    return (await this.run('setField', accountId, ['tier', tier]))[0] === 1;
  }

  async setMonthlyLimit(accountId: string, limit: number | null) {
    return (await this.run('setField', accountId, ['monthly_limit', limit === null ? '' : String(limit)]))[0] === 1;
  }

  async setKey(accountId: string, keyHash: string, prefix: string, now: number) {
    await this.run('setKey', accountId, [keyHash, prefix, iso(now)]);
  }

  async findAccountByKeyHash(keyHash: string) {
    const [reply] = await this.run('findByKey', keyHash, []);
    const found = accountOf(reply);
    // The nonce already ties this reply to this request; a mapping to an account whose live key is
    // another one means inconsistent data, and must never authenticate anybody.
    if (found && found.keyHash !== keyHash) {
      this.log({ level: 'error', msg: 'redis key mapping points at an account with another key; treated as no key', account_id: found.account.id });
      return null;
    }
    return found?.account ?? null;
  }

  async revokeKey(accountId: string) {
    return (await this.run('revokeKey', accountId, []))[0] === 1;
  }

  async regenerateKey(accountId: string, keyHash: string, prefix: string, now: number, throttleMs: number): Promise<RegenerateResult> {
    const [outcome, waitMs] = await this.run('regenerateKey', accountId, [keyHash, prefix, iso(now), this.at(now), String(throttleMs)]);
    if (outcome === 'ok') return { ok: true };
    if (outcome === 'no_key') return { ok: false, reason: 'no_key' };
    return { ok: false, reason: 'throttled', retryAfterSec: Math.max(1, Math.ceil(Number(waitMs) / 1000)) };
  }

  async issueFirstKey(a: { subject: string; name: string; tier: Tier; keyHash: string; prefix: string; now: number }): Promise<IssueResult> {
    const [outcome, reply, created] = await this.run('issueFirstKey', a.subject, [newAccountId(), a.name, a.tier, iso(a.now), String(a.now), a.keyHash, a.prefix]);
    const account = accountOf(reply)?.account;
    if (!account) throw new Error('issueFirstKey: script returned no account');
    return outcome === 'ok' ? { ok: true, account, created: created === 1 } : { ok: false, reason: 'key_exists', account };
  }

  async consumeMonthly(accountId: string, limit: number, now: number): Promise<CountResult> {
    // A count whose reply came too late (we already answered 503) is given back: a 503 never costs a call.
    const onLate = (reply: unknown[]) => {
      if (reply[0] === 1) void this.run('refund', accountId, ['', String(reply[3])]).catch(() => undefined);
    };
    const [allowed, used, resetAt] = await this.run('consume', accountId, [String(limit), this.at(now)], onLate);
    return { allowed: allowed === 1, used: Number(used), limit, resetAt: Number(resetAt) };
  }

  async refundMonthly(accountId: string, now: number) {
    await this.run('refund', accountId, [this.at(now), '']);
  }

  async monthlyUsage(accountId: string, now: number) {
    return Number((await this.run('usage', accountId, [this.at(now)]))[0]);
  }

  async hitWindow(key: string, limit: number, windowMs: number, now: number): Promise<CountResult> {
    try {
      const [allowed, used, resetAt] = await this.run('hitWindow', key, [String(limit), String(windowMs), this.at(now)]);
      return { allowed: allowed === 1, used: Number(used), limit, resetAt: Number(resetAt) };
    } catch (e) {
      // Declared policy: rolling windows (demo per-IP) stay up on this replica's own buckets while
      // Redis is away; the limit then holds per replica instead of across them. Only when the hit
      // cannot have reached Redis: a slow reply counted locally as well let 6-15 of 100 concurrent
      // demo calls over 3 replicas through, instead of 5.
      if (!(e instanceof RedisUnreachable)) throw e;
      return this.localWindows.hit(key, limit, windowMs, now);
    }
  }

  /** A write, not a PING: a read-only replica (after a failover) or a full Redis is not ready. */
  async ping() {
    try {
      return (await this.conn.send('SET', [`${this.ns}ping`, '1', 'PX', '60000'])) === 'OK';
    } catch {
      return false;
    }
  }

  async close() {
    this.conn.close();
  }

  /** The `now` argument of a script: '' lets the script read Redis TIME. */
  private at(now: number): string {
    return this.clock === 'caller' ? String(now) : '';
  }

  /** Runs a script by SHA (loading it on NOSCRIPT, e.g. after a Redis restart) and checks its nonce. */
  private async run(name: ScriptName, id: string, args: string[], onLate?: (reply: unknown[]) => void): Promise<unknown[]> {
    const script = SCRIPTS[name];
    const nonce = String(++this.nonce);
    const argv = ['1', id, this.ns, ...args, nonce];
    const checked = (reply: unknown): unknown[] => {
      if (!Array.isArray(reply) || reply[reply.length - 1] !== nonce) {
        this.conn.reset(`reply to ${name} does not carry its request's nonce`);
        throw unavailable();
      }
      return reply.slice(0, -1);
    };
    const late = onLate && ((reply: unknown) => Array.isArray(reply) && reply[reply.length - 1] === nonce && onLate(reply.slice(0, -1)));
    try {
      return checked(await this.conn.send('EVALSHA', [script.sha, ...argv], late));
    } catch (e) {
      if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
      return checked(await this.conn.send('EVAL', [script.source, ...argv], late));
    }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
