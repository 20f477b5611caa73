import { summaryOf, type Attempt, type Delivery, type WatchlistRecord, type WatchlistSummaryRecord } from './watch-model';
import type { RedisConnection } from './redis/connection';
import { WATCH_SCRIPTS } from './redis/watch-scripts';
import { parseInTurns } from '../shared/turns';
import type { AttemptOutcome, ClaimedEvent, OutboxEvent, WatchStore } from './watch-store';

/**
 * Watchlists and the outbox in Redis, shared by replicas: each write is one Lua script, and a
 * claim leases events to one replica (watch-scripts.ts). Times are the caller's clock; replicas
 * whose clocks disagree by less than the lease never deliver an event twice at once.
 */
export class RedisWatchStore implements WatchStore {
  constructor(
    private readonly conn: RedisConnection,
    private readonly ns: string,
  ) {}

  private eval(script: keyof typeof WATCH_SCRIPTS, args: (string | number)[]): Promise<any> {
    return this.conn.send('EVAL', [WATCH_SCRIPTS[script], '0', this.ns, ...args.map(String)]);
  }

  private async records(ids: string[]): Promise<WatchlistRecord[]> {
    if (ids.length === 0) return [];
    const texts: (string | null)[] = await this.conn.send('MGET', ids.map((id) => `${this.ns}wl:${id}`));
    return parseInTurns<WatchlistRecord>(texts.filter((x): x is string => typeof x === 'string'));
  }

  async createWatchlist(w: WatchlistRecord, maxLists: number) {
    return (await this.eval('create', [w.id, w.account_id, JSON.stringify(w), maxLists, w.webhook_url ? '1' : '0', JSON.stringify(summaryOf(w))])) === 1;
  }

  async getWatchlist(id: string, accountId?: string) {
    const [w] = await this.records([id]);
    return w && (accountId === undefined || w.account_id === accountId) ? w : null;
  }

  async listWatchlists(accountId: string) {
    return this.records(await this.conn.send('ZRANGE', [`${this.ns}wla:${accountId}`, '0', '-1']));
  }

  async watchlistSummaries(accountId: string) {
    const ids: string[] = await this.conn.send('ZRANGE', [`${this.ns}wla:${accountId}`, '0', '-1']);
    if (ids.length === 0) return [];
    const texts: (string | null)[] = await this.conn.send('MGET', ids.map((id) => `${this.ns}wls:${id}`));
    // A list written before summaries were kept is read whole, once per read, until its next update.
    const older = ids.filter((_, i) => texts[i] === null);
    const whole = new Map((await this.records(older)).map((w) => [w.id, summaryOf(w)]));
    return ids.flatMap((id, i) => {
      const s = texts[i] ? (JSON.parse(texts[i]!) as WatchlistSummaryRecord) : whole.get(id);
      return s ? [s] : [];
    });
  }

  async webhookWatchlists() {
    const ids: string[] = await this.conn.send('SMEMBERS', [`${this.ns}wlhook`]);
    return (await this.records(ids.sort())).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async updateWatchlist(w: WatchlistRecord) {
    return (await this.eval('update', [w.id, w.account_id, JSON.stringify(w), w.webhook_url ? '1' : '0', JSON.stringify(summaryOf(w))])) === 1;
  }

  async deleteWatchlist(id: string, accountId: string) {
    return (await this.eval('delete', [id, accountId])) === 1;
  }

  async releaseDone(asOf: string) {
    return (await this.conn.send('SISMEMBER', [`${this.ns}whrel`, asOf])) === 1;
  }

  async markReleaseDone(asOf: string) {
    await this.conn.send('SADD', [`${this.ns}whrel`, asOf]);
  }

  async enqueue(events: OutboxEvent[], now: number) {
    let added = 0;
    // In slices, so one script never holds Redis for long (a release can make thousands of events).
    for (let i = 0; i < events.length; i += 500) {
      const args = events.slice(i, i + 500).flatMap((e) => [e.id, e.watchlist_id, JSON.stringify(e), e.created_at]);
      added += Number(await this.eval('enqueue', [now, ...args]));
    }
    return added;
  }

  async claimDue(now: number, limit: number, leaseMs: number, skip: readonly string[] = []): Promise<ClaimedEvent[]> {
    const flat: string[] = await this.eval('claim', [now, limit, leaseMs, ...skip]);
    const out: ClaimedEvent[] = [];
    for (let i = 0; i < flat.length; i += 3) {
      const event = JSON.parse(flat[i]!) as OutboxEvent;
      out.push({ ...event, retry_from: Number(flat[i + 1]), attempts: (JSON.parse(flat[i + 2]!) as unknown[]).length });
    }
    return out;
  }

  async release(eventIds: readonly string[], dueAt: number) {
    if (eventIds.length > 0) await this.eval('release', [dueAt, ...eventIds]);
  }

  async recordAttempt(eventId: string, attempt: Attempt, outcome: AttemptOutcome) {
    await this.eval('record', [eventId, JSON.stringify(attempt), outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : '']);
  }

  async listDeliveries(watchlistId: string, limit: number): Promise<Delivery[]> {
    const flat: (string | null)[] = await this.eval('deliveries', [watchlistId, limit]);
    const out: Delivery[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      if (flat[i] === null) continue;
      const e = JSON.parse(flat[i]!) as OutboxEvent;
      const status = flat[i + 1] as Delivery['status'];
      out.push({
        id: e.id,
        type: e.type,
        registry_id: e.registry_id,
        as_of: e.as_of,
        status,
        created_at: new Date(e.created_at).toISOString(),
        next_attempt_at: status === 'pending' && flat[i + 2] ? new Date(Number(flat[i + 2])).toISOString() : null,
        attempts: JSON.parse(flat[i + 3]!) as Attempt[],
      });
    }
    return out;
  }

  async redeliver(watchlistId: string, eventId: string, now: number) {
    return (await this.eval('redeliver', [watchlistId, eventId, now])) === 1;
  }
}
