import type { Attempt, Delivery, EventType, WatchlistRecord, WatchlistSummaryRecord } from './watch-model';

/** An event waiting in (or done with) the outbox. `id` is the webhook-id, stable across retries. */
export type OutboxEvent = {
  id: string;
  watchlist_id: string;
  type: EventType;
  registry_id: string;
  as_of: string;
  /** The exact JSON body sent (signed as is). */
  body: string;
  created_at: number;
};

/** What one delivery attempt led to. */
export type AttemptOutcome = { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; nextAttemptAt: number };

/** A claimed event: `attempts` so far, and when its 24 h retry window began (creation, or a redelivery request). */
export type ClaimedEvent = OutboxEvent & { attempts: number; retry_from: number };

/**
 * Watchlists and the webhook outbox, shared by replicas on Redis (docs/webhooks.md). Writes are
 * atomic; enqueueing is idempotent on the event id, so a release turned into events twice (a crash
 * before it was marked done, or two replicas loading it) queues each event once.
 */
export interface WatchStore {
  /** Inserts unless the account already has `maxLists` lists: then false. */
  createWatchlist(w: WatchlistRecord, maxLists: number): Promise<boolean>;
  /** The list, if it exists and (when given) belongs to `accountId`. */
  getWatchlist(id: string, accountId?: string): Promise<WatchlistRecord | null>;
  listWatchlists(accountId: string): Promise<WatchlistRecord[]>;
  /**
   * The account's lists without their IDs (a count instead), oldest first, read without parsing the
   * IDs: an account's lists at their limits, parsed whole, held the thread for far too long.
   */
  watchlistSummaries(accountId: string): Promise<WatchlistSummaryRecord[]>;
  /** Lists with a webhook URL, of every account (for turning a release into events). */
  webhookWatchlists(): Promise<WatchlistRecord[]>;
  /** Replaces the stored list (same id and account); false when it is gone. */
  updateWatchlist(w: WatchlistRecord): Promise<boolean>;
  /** Deletes the list and its outbox entries; false when it was not the account's. */
  deleteWatchlist(id: string, accountId: string): Promise<boolean>;

  /** True once `asOf` was turned into events (durable: a restart emits nothing twice). */
  releaseDone(asOf: string): Promise<boolean>;
  markReleaseDone(asOf: string): Promise<void>;

  /** Queues events due now; an id already queued is left as it is. Returns how many were new. */
  enqueue(events: OutboxEvent[], now: number): Promise<number>;
  /**
   * Takes up to `limit` due pending events and leases them for `leaseMs` (their next attempt moves
   * to now + leaseMs), so another replica, or this one after a crash, takes them only after that.
   * Events of the lists in `skip` are left for a later claim (their destination is busy).
   */
  claimDue(now: number, limit: number, leaseMs: number, skip?: readonly string[]): Promise<ClaimedEvent[]>;
  /** Gives claimed, still pending events back without an attempt: due again at `dueAt` (their lease ends early). */
  release(eventIds: readonly string[], dueAt: number): Promise<void>;
  /** Appends the attempt and moves the event on (delivered, failed, or pending until `nextAttemptAt`). */
  recordAttempt(eventId: string, attempt: Attempt, outcome: AttemptOutcome): Promise<void>;
  /** Newest first, at most `limit`. */
  listDeliveries(watchlistId: string, limit: number): Promise<Delivery[]>;
  /** Makes an event of this list pending and due at `now` again (same id); false when there is none. */
  redeliver(watchlistId: string, eventId: string, now: number): Promise<boolean>;
}
