import type { Config } from '../../config';
import type { Log } from '../../log';
import type { AttemptOutcome, ClaimedEvent, WatchStore } from '../../state/watch-store';
import { VERSION } from '../../version';
import type { Attempt } from '../../state/watch-model';
import { WebhookAllowList } from './allow-list';
import { postEvent } from './attempt';

/** Events taken per round; all of a round's deliveries run at once. */
const BATCH = 20;

type Settings = Pick<Config, 'webhookAllow' | 'webhookTimeoutMs' | 'webhookRetryBaseMs' | 'webhookRetryMaxMs' | 'webhookGiveUpMs' | 'webhookPollMs' | 'webhookLeaseMs'>;

/** When a failed attempt is tried again: base·2^(attempts before it), capped; failed once past the give-up window. */
export function outcomeAfterFailure(s: Settings, event: ClaimedEvent, now: number): AttemptOutcome {
  const delay = Math.min(s.webhookRetryBaseMs * 2 ** event.attempts, s.webhookRetryMaxMs);
  const next = now + delay;
  return next - event.retry_from > s.webhookGiveUpMs ? { status: 'failed' } : { status: 'pending', nextAttemptAt: next };
}

/**
 * Delivers the outbox: every `webhookPollMs` it claims due events (a lease, so with replicas on
 * Redis each event goes out from one of them) and posts them signed to their list's current URL,
 * re-checked against the allow-list at each attempt. At-least-once: an attempt whose outcome was
 * not recorded (a crash) is made again after the lease, with the same webhook-id.
 */
export class WebhookDispatcher {
  private readonly allow: WebhookAllowList;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private round: Promise<number> | null = null;
  private stopped = false;
  private failing = false;

  constructor(private readonly o: { watch: WatchStore; settings: Settings; log: Log; clock: () => number }) {
    this.allow = new WebhookAllowList(o.settings.webhookAllow);
  }

  start(): void {
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.tick().then(
        (n) => {
          if (this.failing) this.o.log({ level: 'info', msg: 'webhook delivery resumed' });
          this.failing = false;
          return n;
        },
        (e: Error) => {
          // A store outage (Redis away) only delays deliveries: the events stay in the outbox.
          // One line when it starts and one when it ends, not one per poll.
          if (!this.failing) this.o.log({ level: 'warn', msg: `webhook delivery paused: ${e.message}` });
          this.failing = true;
          return 0;
        },
      );
      void this.round.then((n) => this.schedule(n === BATCH ? 0 : this.o.settings.webhookPollMs));
    }, ms);
  }

  /** One round: claims due events and delivers them; resolves to how many it took. */
  async tick(): Promise<number> {
    const s = this.o.settings;
    const claimed = await this.o.watch.claimDue(this.o.clock(), BATCH, s.webhookLeaseMs);
    await Promise.all(claimed.map((e) => this.deliver(e)));
    return claimed.length;
  }

  private async deliver(event: ClaimedEvent): Promise<void> {
    const s = this.o.settings;
    const list = await this.o.watch.getWatchlist(event.watchlist_id);
    const now = this.o.clock();
    const target = list?.webhook_url && list.webhook_secret ? { url: list.webhook_url, secret: list.webhook_secret } : null;
    const refusal = target ? this.allow.refusal(target.url) : 'the watchlist has no webhook URL any more';
    let attempt: Attempt & { ok: boolean };
    if (refusal || !target) {
      attempt = { ok: false, at: new Date(now).toISOString(), status_code: null, error: refusal, response_excerpt: '', duration_ms: 0 };
    } else {
      attempt = await postEvent({ ...target, id: event.id, body: event.body, now, timeoutMs: s.webhookTimeoutMs, userAgent: `facility-score-webhooks/${VERSION}` });
    }
    const { ok, ...record } = attempt;
    // A target that is gone or no longer allowed will not come back by waiting: failed at once.
    const outcome: AttemptOutcome = ok ? { status: 'delivered' } : refusal ? { status: 'failed' } : outcomeAfterFailure(s, event, this.o.clock());
    await this.o.watch.recordAttempt(event.id, record, outcome);
    this.o.log({ level: ok ? 'info' : 'warn', msg: 'webhook attempt', event_id: event.id, watchlist_id: event.watchlist_id, status_code: record.status_code, outcome: outcome.status, ...(record.error ? { error: record.error } : {}) });
  }

  /** Stops claiming; waits for the round in flight (bounded by the attempt timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.round?.catch(() => undefined);
  }
}
