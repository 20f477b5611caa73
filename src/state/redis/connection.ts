import { RedisClient } from 'bun';
import type { Log } from '../../log';
import { AppError } from '../../errors';

export type RedisConnectionOptions = {
  /**
   * Longest wait for the reply of a command that was sent, before the caller gets 503 (the command
   * may still run later). Long (10 s by default): a slow Redis is waited for, not treated as down.
   */
  timeoutMs: number;
  /** Longest wait for a (re)connect; past it Redis counts as unreachable. */
  connectTimeoutMs: number;
  /** After a failed connect, further commands fail at once for this long instead of each retrying. */
  retryDelayMs: number;
  /** Transitions only (down / up / protocol trouble), never one line per failed command. */
  log: Log;
};

const UNAVAILABLE = 'Shared state is temporarily unavailable; retry in a few seconds';

/** How a caller learns Redis did not answer: 503, with a short Retry-After (recovery takes seconds). */
export function unavailable(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', UNAVAILABLE, { 'retry-after': '2' });
}

/**
 * The same 503, for a command known not to have run: no connection could be made (refused, down,
 * connect timed out), or Redis refused it outright (LOADING, READONLY, OOM...). Only then may a
 * caller count somewhere else (the demo's local buckets) without counting twice. A command that was
 * sent and got no reply in time may have run: that is `unavailable()`.
 */
export class RedisUnreachable extends AppError {
  constructor() {
    super('SERVICE_UNAVAILABLE', UNAVAILABLE, { 'retry-after': '2' });
  }
}

// Server errors meaning "not now" rather than "wrong command": answered 503 like an outage.
const TRANSIENT = /^(LOADING|BUSY|READONLY|OOM|MASTERDOWN|TRYAGAIN|NOREPLICAS|CLUSTERDOWN|MISCONF)\b/;

/**
 * One connection to Redis, owned and replaced by us rather than by Bun's client.
 *
 * Bun's built-in client reconnects on its own but gives up for good after `maxRetries`, and with
 * its offline queue a command issued during an outage runs whenever the link comes back, long after
 * its HTTP request was answered. So: auto-reconnect and the offline queue are off; when the link
 * closes we drop the client and the next command dials a fresh one (at most one dial at a time,
 * and none for `retryDelayMs` after a failed dial). Every command is bounded by `timeoutMs`.
 */
export class RedisConnection {
  private client: RedisClient | null = null;
  private dialing: Promise<RedisClient> | null = null;
  private failedAt = 0;
  private lastReplyAt = 0;
  private down = false;
  private closed = false;
  private readonly pending = new Set<Pending>();
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly url: string,
    private readonly opts: RedisConnectionOptions,
  ) {}

  /**
   * Sends one command. Rejects with 503 SERVICE_UNAVAILABLE when Redis is unreachable or refuses it
   * (`RedisUnreachable`), or when its reply takes longer than `timeoutMs`; `onLate` sees the reply
   * of a command that timed out but then ran.
   */
  send(command: string, args: string[], onLate?: (reply: unknown) => void): Promise<any> {
    const client = this.client;
    if (client?.connected) return this.sendOn(client, command, args, onLate);
    return this.connected().then((c) => this.sendOn(c, command, args, onLate));
  }

  // Deadlines are enforced by one sweeper per connection rather than a timer per command: this is
  // the hot path of every authenticated call.
  private sendOn(client: RedisClient, command: string, args: string[], onLate?: (reply: unknown) => void): Promise<any> {
    return new Promise((resolve, reject) => {
      const p: Pending = { deadline: performance.now() + this.opts.timeoutMs, reject, client, settled: false };
      this.pending.add(p);
      this.startSweeper();
      client.send(command, args).then(
        (reply) => {
          if (p.settled) return onLate?.(reply);
          p.settled = true;
          this.pending.delete(p);
          this.lastReplyAt = Date.now();
          if (this.down) this.markUp();
          resolve(reply);
        },
        (e) => {
          if (p.settled) return;
          p.settled = true;
          this.pending.delete(p);
          reject(this.classify(e));
        },
      );
    });
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      if (this.pending.size === 0) return;
      const now = performance.now();
      for (const p of this.pending) {
        if (p.deadline > now) continue;
        p.settled = true;
        this.pending.delete(p);
        p.reject(unavailable());
        this.onTimeout(p.client);
      }
    }, Math.max(5, Math.floor(this.opts.timeoutMs / 20)));
    this.sweeper.unref?.();
  }

  /** Drops the current link (e.g. after a reply that does not match its request); the next command redials. */
  reset(reason: string): void {
    this.opts.log({ level: 'warn', msg: 'redis connection reset', reason });
    const c = this.client;
    this.client = null;
    c?.close();
  }

  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.client?.close();
    this.client = null;
  }

  private classify(e: unknown): unknown {
    if (e instanceof AppError) return e;
    const code = (e as { code?: string }).code;
    const message = e instanceof Error ? e.message : String(e);
    if (code === 'ERR_REDIS_SERVER_ERROR' && !TRANSIENT.test(message)) return e;
    this.markDown(message);
    // A transient server error is a refusal: the command did not run. Any other failure here is
    // the link dying under a sent command, whose fate nobody knows.
    return code === 'ERR_REDIS_SERVER_ERROR' ? new RedisUnreachable() : unavailable();
  }

  private connected(): Promise<RedisClient> {
    if (this.closed) return Promise.reject(new Error('state store is closed'));
    if (this.client?.connected) return Promise.resolve(this.client);
    if (this.dialing) return this.dialing;
    if (Date.now() - this.failedAt < this.opts.retryDelayMs) return Promise.reject(new RedisUnreachable());
    this.dialing = this.dial().finally(() => (this.dialing = null));
    return this.dialing;
  }

  private async dial(): Promise<RedisClient> {
    this.client?.close();
    this.client = null;
    const client = new RedisClient(this.url, {
      autoReconnect: false,
      enableOfflineQueue: false,
      connectionTimeout: this.opts.connectTimeoutMs,
      enableAutoPipelining: true,
    });
    client.onclose = () => {
      if (this.client === client) this.client = null;
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // connectionTimeout covers the TCP connect; this also bounds the handshake (e.g. a paused server).
      await Promise.race([client.connect(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('connect timed out')), this.opts.connectTimeoutMs)))]);
    } catch (e) {
      client.close();
      this.failedAt = Date.now();
      this.markDown(e instanceof Error ? e.message : String(e));
      throw new RedisUnreachable();
    } finally {
      clearTimeout(timer);
    }
    if (this.closed) {
      client.close();
      throw new Error('state store is closed');
    }
    this.client = client;
    this.lastReplyAt = Date.now();
    return client;
  }

  // A link that answered nothing during a whole wait (server stopped, packets dropped) is replaced,
  // or every later command would wait on it too; a slow server still answers something meanwhile.
  private onTimeout(client: RedisClient): void {
    this.markDown(`no reply within ${this.opts.timeoutMs} ms`);
    if (this.client === client && Date.now() - this.lastReplyAt >= this.opts.timeoutMs) this.reset(`no reply at all within ${this.opts.timeoutMs} ms`);
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.opts.log({ level: 'info', msg: 'redis reachable again' });
  }

  private markDown(reason: string): void {
    if (this.down) return;
    this.down = true;
    this.opts.log({ level: 'warn', msg: 'redis unavailable: state-dependent requests answer 503, demo limits fall back to local buckets while no connection can be made', reason });
  }
}

type Pending = { deadline: number; reject: (e: unknown) => void; client: RedisClient; settled: boolean };
