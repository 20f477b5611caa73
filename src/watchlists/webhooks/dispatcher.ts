import type { Config } from '../../config';
import type { Log } from '../../log';
import type { Account } from '../../state/model';
import type { WatchlistRecord } from '../../state/watch-model';
import type { AttemptOutcome, ClaimedEvent, WatchStore } from '../../state/watch-store';
import { VERSION } from '../../version';
import { watchlistsLive } from '../limits';
import { WebhookAllowList } from './allow-list';
import { postEvent } from './attempt';

/**
 * Deliveries in flight at once: to one destination (scheme, host and port), and in all. A dead or
 * slow receiver holds at most its own two slots for the attempt timeout; every other destination
 * goes on at once.
 */
export const PER_DESTINATION = 2;
export const IN_FLIGHT = 32;

/** Outcomes recorded without a request (the closed set, with attempt.ts's). */
export const NOT_SENT_NO_URL = 'not sent: the watchlist has no webhook URL any more';
export const NOT_SENT_DORMANT = "not sent: the account's key is revoked or its plan has no watchlists";

type Settings = Pick<Config, 'webhookAllow' | 'webhookTimeoutMs' | 'webhookRetryBaseMs' | 'webhookRetryMaxMs' | 'webhookGiveUpMs' | 'webhookPollMs' | 'webhookLeaseMs'>;
type Target = { url: string; secret: string; destination: string };

/** When a failed attempt is tried again: base·2^(attempts before it), capped; failed once past the give-up window. */
export function outcomeAfterFailure(s: Settings, event: ClaimedEvent, now: number): AttemptOutcome {
  const delay = Math.min(s.webhookRetryBaseMs * 2 ** event.attempts, s.webhookRetryMaxMs);
  const next = now + delay;
  return next - event.retry_from > s.webhookGiveUpMs ? { status: 'failed' } : { status: 'pending', nextAttemptAt: next };
}

/**
 * Delivers the outbox, one queue per destination: it claims due events (a lease, so with replicas on
 * Redis each event goes out from one of them) only while their destination has a free slot, and
 * posts them signed to their list's current URL, re-checked against the allow-list and the owner's
 * account at each attempt. A freed slot is refilled at once; new and retried events are found by a
 * poll every `webhookPollMs`. At-least-once: an attempt whose outcome was not recorded (a crash) is
 * made again after the lease, with the same webhook-id.
 */
export class WebhookDispatcher {
  private readonly allow: WebhookAllowList;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private failing = false;
  /** Destinations with deliveries in flight, and the lists seen going there (skipped by claims while it is full). */
  private readonly busy = new Map<string, { inFlight: number; lists: Set<string> }>();
  private readonly running = new Set<Promise<void>>();
  private filling: Promise<number> | null = null;
  private again = false;

  constructor(private readonly o: { watch: WatchStore; accounts: (id: string) => Promise<Account | null>; settings: Settings; log: Log; clock: () => number }) {
    this.allow = new WebhookAllowList(o.settings.webhookAllow);
  }

  start(): void {
    const poll = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.fill().then(poll), this.o.settings.webhookPollMs);
    };
    void this.fill().then(poll);
  }

  /**
   * Claims and starts what the free slots allow, until nothing due can start, then waits for every
   * delivery it started (tests drive the dispatcher with this). Resolves to how many it started.
   */
  async tick(): Promise<number> {
    let started = await this.fill();
    while (this.running.size > 0) {
      await Promise.race(this.running);
      started += await this.fill();
    }
    return started;
  }

  /** One claim-and-start at a time; a request while one runs makes it go round once more. */
  private fill(): Promise<number> {
    if (this.filling) {
      this.again = true;
      return this.filling;
    }
    this.filling = (async () => {
      let started = 0;
      try {
        do {
          this.again = false;
          started += await this.claimAndStart();
        } while (this.again && !this.stopped);
        if (this.failing) this.o.log({ level: 'info', msg: 'webhook delivery resumed' });
        this.failing = false;
      } catch (e) {
        // A store outage (Redis away) only delays deliveries: the events stay in the outbox.
        // One line when it starts and one when it ends, not one per poll.
        if (!this.failing) this.o.log({ level: 'warn', msg: `webhook delivery paused: ${(e as Error).message}` });
        this.failing = true;
      }
      return started;
    })().finally(() => (this.filling = null));
    return this.filling;
  }

  private async claimAndStart(): Promise<number> {
    const free = IN_FLIGHT - this.running.size;
    if (free <= 0 || this.stopped) return 0;
    const full = [...this.busy.values()].filter((d) => d.inFlight >= PER_DESTINATION).flatMap((d) => [...d.lists]);
    const claimed = await this.o.watch.claimDue(this.o.clock(), free, this.o.settings.webhookLeaseMs, full);
    let started = 0;
    const waiting: string[] = [];
    const seen = { lists: new Map<string, WatchlistRecord | null>(), owners: new Map<string, Account | null>() };
    for (const event of claimed) {
      const target = await this.targetOf(event, seen);
      if (typeof target === 'string') {
        await this.record(event, { ok: false, at: new Date(this.o.clock()).toISOString(), status_code: null, error: target, response_excerpt: '', duration_ms: 0 });
        continue;
      }
      if (this.stopped) {
        waiting.push(event.id);
        continue;
      }
      const dest = this.busy.get(target.destination) ?? { inFlight: 0, lists: new Set<string>() };
      this.busy.set(target.destination, dest);
      // Remembered even when it has to wait: the next claims pass over this list while its destination is full.
      dest.lists.add(event.watchlist_id);
      // More events of one destination in one claim than it has free slots: the rest wait in the outbox.
      if (dest.inFlight >= PER_DESTINATION) {
        waiting.push(event.id);
        continue;
      }
      dest.inFlight++;
      started++;
      const run: Promise<void> = this.deliver(event, target)
        .catch((e: Error) => this.o.log({ level: 'warn', msg: `webhook attempt not recorded: ${e.message}`, event_id: event.id }))
        .finally(() => {
          this.running.delete(run);
          if (--dest.inFlight === 0) this.busy.delete(target.destination);
          if (!this.stopped) void this.fill();
        });
      this.running.add(run);
    }
    await this.o.watch.release(waiting, this.o.clock());
    return started;
  }

  /** Where the event goes now, or why it is not sent (one of the closed outcomes). Lists and owners are read once per claim. */
  private async targetOf(event: ClaimedEvent, seen: { lists: Map<string, WatchlistRecord | null>; owners: Map<string, Account | null> }): Promise<Target | string> {
    if (!seen.lists.has(event.watchlist_id)) seen.lists.set(event.watchlist_id, await this.o.watch.getWatchlist(event.watchlist_id));
    const list = seen.lists.get(event.watchlist_id);
    if (!list?.webhook_url || !list.webhook_secret) return NOT_SENT_NO_URL;
    if (!seen.owners.has(list.account_id)) seen.owners.set(list.account_id, await this.o.accounts(list.account_id));
    // Checked at each attempt, not only when the list was made: a revoked or downgraded account's lists are dormant.
    if (!watchlistsLive(seen.owners.get(list.account_id)!)) return NOT_SENT_DORMANT;
    const refusal = this.allow.refusal(list.webhook_url);
    if (refusal) return `not sent: ${refusal}`;
    const u = new URL(list.webhook_url);
    return { url: list.webhook_url, secret: list.webhook_secret, destination: `${u.protocol}//${u.host}` };
  }

  private async deliver(event: ClaimedEvent, target: Target): Promise<void> {
    const s = this.o.settings;
    const attempt = await postEvent({ url: target.url, secret: target.secret, id: event.id, body: event.body, now: this.o.clock(), timeoutMs: s.webhookTimeoutMs, userAgent: `facility-score-webhooks/${VERSION}` });
    await this.record(event, attempt);
  }

  private async record(event: ClaimedEvent, attempt: Awaited<ReturnType<typeof postEvent>>): Promise<void> {
    const { ok, detail, ...record } = attempt;
    // Not sent at all (no URL, dormant account, a target no longer allowed): waiting will not change it, so failed at once.
    const outcome: AttemptOutcome = ok ? { status: 'delivered' } : record.error?.startsWith('not sent:') ? { status: 'failed' } : outcomeAfterFailure(this.o.settings, event, this.o.clock());
    await this.o.watch.recordAttempt(event.id, record, outcome);
    this.o.log({ level: ok ? 'info' : 'warn', msg: 'webhook attempt', event_id: event.id, watchlist_id: event.watchlist_id, status_code: record.status_code, outcome: outcome.status, ...(record.error ? { error: record.error } : {}), ...(detail ? { detail } : {}) });
  }

  /** Stops claiming; waits for the deliveries in flight (each bounded by the attempt timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.filling?.catch(() => undefined);
    await Promise.all(this.running);
  }
}
