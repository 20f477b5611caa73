import type { Database } from 'bun:sqlite';
import { summaryOf, type Attempt, type Delivery, type WatchlistRecord, type WatchlistSummaryRecord } from './watch-model';
import { parseInTurns } from '../shared/turns';
import type { AttemptOutcome, ClaimedEvent, OutboxEvent, WatchStore } from './watch-store';

const DDL = `
CREATE TABLE IF NOT EXISTS watchlist (
  id TEXT PRIMARY KEY NOT NULL,
  account_id TEXT NOT NULL,
  has_webhook INTEGER NOT NULL,
  record TEXT NOT NULL,
  summary TEXT
);
CREATE INDEX IF NOT EXISTS watchlist_account ON watchlist(account_id);
CREATE TABLE IF NOT EXISTS webhook_release (as_of TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outbox (
  id TEXT PRIMARY KEY NOT NULL,
  watchlist_id TEXT NOT NULL,
  type TEXT NOT NULL,
  registry_id TEXT NOT NULL,
  as_of TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  retry_from INTEGER NOT NULL,
  status TEXT NOT NULL,
  next_attempt_at INTEGER,
  attempts TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS outbox_watchlist ON outbox(watchlist_id, created_at);
`;

// The summary (the record without its IDs, and their count) is kept beside the record so the list
// of an account's watchlists never parses the IDs. A state file from before it gets it once, at open.
const ADD_SUMMARY = `
ALTER TABLE watchlist ADD COLUMN summary TEXT;
UPDATE watchlist SET summary = json_set(json_remove(record, '$.registry_ids'), '$.registry_id_count', json_array_length(record, '$.registry_ids'));
`;

type OutboxRow = OutboxEvent & { retry_from: number; status: Delivery['status']; next_attempt_at: number | null; attempts: string };

/** Watchlists and the outbox in the SQLite state file; every write is one statement or one IMMEDIATE transaction. */
export class SqliteWatchStore implements WatchStore {
  private readonly q;

  constructor(private readonly db: Database) {
    db.exec(DDL);
    const columns = db.query<{ name: string }, []>("SELECT name FROM pragma_table_info('watchlist')").all();
    if (!columns.some((c) => c.name === 'summary')) db.transaction(() => db.exec(ADD_SUMMARY)).immediate();
    this.q = {
      count: db.prepare<{ n: number }, [string]>('SELECT count(*) AS n FROM watchlist WHERE account_id = ?'),
      insert: db.prepare('INSERT INTO watchlist (id, account_id, has_webhook, record, summary) VALUES (?, ?, ?, ?, ?)'),
      byId: db.prepare<{ record: string }, [string]>('SELECT record FROM watchlist WHERE id = ?'),
      byAccount: db.prepare<{ record: string }, [string]>('SELECT record FROM watchlist WHERE account_id = ? ORDER BY rowid'),
      summaries: db.prepare<{ summary: string }, [string]>('SELECT summary FROM watchlist WHERE account_id = ? ORDER BY rowid'),
      withHook: db.prepare<{ record: string }, []>('SELECT record FROM watchlist WHERE has_webhook = 1 ORDER BY rowid'),
      update: db.prepare('UPDATE watchlist SET has_webhook = ?, record = ?, summary = ? WHERE id = ? AND account_id = ?'),
      delete: db.prepare('DELETE FROM watchlist WHERE id = ? AND account_id = ?'),
      deleteEvents: db.prepare('DELETE FROM outbox WHERE watchlist_id = ?'),
      releaseDone: db.prepare<{ as_of: string }, [string]>('SELECT as_of FROM webhook_release WHERE as_of = ?'),
      markRelease: db.prepare('INSERT OR IGNORE INTO webhook_release (as_of) VALUES (?)'),
      enqueue: db.prepare(
        `INSERT OR IGNORE INTO outbox (id, watchlist_id, type, registry_id, as_of, body, created_at, retry_from, status, next_attempt_at, attempts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, '[]')`,
      ),
      anyDue: db.prepare<{ id: string }, [number]>("SELECT id FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1"),
      due: db.prepare<OutboxRow, [number, string, number]>(
        "SELECT * FROM outbox WHERE status = 'pending' AND next_attempt_at <= ? AND watchlist_id NOT IN (SELECT value FROM json_each(?)) ORDER BY next_attempt_at, id LIMIT ?",
      ),
      lease: db.prepare('UPDATE outbox SET next_attempt_at = ? WHERE id = ?'),
      release: db.prepare("UPDATE outbox SET next_attempt_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND status = 'pending'"),
      attempts: db.prepare<{ attempts: string }, [string]>('SELECT attempts FROM outbox WHERE id = ?'),
      record: db.prepare('UPDATE outbox SET attempts = ?, status = ?, next_attempt_at = ? WHERE id = ?'),
      deliveries: db.prepare<OutboxRow, [string, number]>('SELECT * FROM outbox WHERE watchlist_id = ? ORDER BY created_at DESC, id DESC LIMIT ?'),
      redeliver: db.prepare("UPDATE outbox SET status = 'pending', next_attempt_at = ?, retry_from = ? WHERE id = ? AND watchlist_id = ?"),
    };
  }

  async createWatchlist(w: WatchlistRecord, maxLists: number) {
    return this.db
      .transaction(() => {
        if (this.q.count.get(w.account_id)!.n >= maxLists) return false;
        this.q.insert.run(w.id, w.account_id, w.webhook_url ? 1 : 0, JSON.stringify(w), JSON.stringify(summaryOf(w)));
        return true;
      })
      .immediate();
  }

  async getWatchlist(id: string, accountId?: string) {
    const row = this.q.byId.get(id);
    const w = row ? (JSON.parse(row.record) as WatchlistRecord) : null;
    return w && (accountId === undefined || w.account_id === accountId) ? w : null;
  }

  async listWatchlists(accountId: string) {
    return this.q.byAccount.all(accountId).map((r) => JSON.parse(r.record) as WatchlistRecord);
  }

  async watchlistSummaries(accountId: string) {
    return this.q.summaries.all(accountId).map((r) => JSON.parse(r.summary) as WatchlistSummaryRecord);
  }

  // Every hooked list with its IDs, read when a release is turned into events in the serving process.
  async webhookWatchlists() {
    return parseInTurns<WatchlistRecord>(this.q.withHook.all().map((r) => r.record));
  }

  async updateWatchlist(w: WatchlistRecord) {
    return this.q.update.run(w.webhook_url ? 1 : 0, JSON.stringify(w), JSON.stringify(summaryOf(w)), w.id, w.account_id).changes > 0;
  }

  async deleteWatchlist(id: string, accountId: string) {
    return this.db
      .transaction(() => {
        if (this.q.delete.run(id, accountId).changes === 0) return false;
        this.q.deleteEvents.run(id);
        return true;
      })
      .immediate();
  }

  async releaseDone(asOf: string) {
    return this.q.releaseDone.get(asOf) !== null;
  }

  async markReleaseDone(asOf: string) {
    this.q.markRelease.run(asOf);
  }

  async enqueue(events: OutboxEvent[], now: number) {
    return this.db
      .transaction(() => {
        let added = 0;
        for (const e of events) added += this.q.enqueue.run(e.id, e.watchlist_id, e.type, e.registry_id, e.as_of, e.body, e.created_at, e.created_at, now).changes;
        return added;
      })
      .immediate();
  }

  async claimDue(now: number, limit: number, leaseMs: number, skip: readonly string[] = []): Promise<ClaimedEvent[]> {
    // The poll runs every second; a plain read first keeps an idle outbox from taking the write lock.
    if (this.q.anyDue.get(now) === null) return [];
    return this.db
      .transaction(() =>
        this.q.due.all(now, JSON.stringify(skip), limit).map((r) => {
          this.q.lease.run(now + leaseMs, r.id);
          const { status: _s, next_attempt_at: _n, attempts, ...event } = r;
          return { ...event, attempts: (JSON.parse(attempts) as Attempt[]).length };
        }),
      )
      .immediate();
  }

  async release(eventIds: readonly string[], dueAt: number) {
    if (eventIds.length > 0) this.q.release.run(dueAt, JSON.stringify(eventIds));
  }

  async recordAttempt(eventId: string, attempt: Attempt, outcome: AttemptOutcome) {
    this.db
      .transaction(() => {
        const row = this.q.attempts.get(eventId);
        if (!row) return;
        const attempts = [...(JSON.parse(row.attempts) as Attempt[]), attempt];
        this.q.record.run(JSON.stringify(attempts), outcome.status, outcome.status === 'pending' ? outcome.nextAttemptAt : null, eventId);
      })
      .immediate();
  }

  async listDeliveries(watchlistId: string, limit: number): Promise<Delivery[]> {
    return this.q.deliveries.all(watchlistId, limit).map((r) => ({
      id: r.id,
      type: r.type,
      registry_id: r.registry_id,
      as_of: r.as_of,
      status: r.status,
      created_at: new Date(r.created_at).toISOString(),
      next_attempt_at: r.status === 'pending' && r.next_attempt_at !== null ? new Date(r.next_attempt_at).toISOString() : null,
      attempts: JSON.parse(r.attempts) as Attempt[],
    }));
  }

  async redeliver(watchlistId: string, eventId: string, now: number) {
    return this.q.redeliver.run(now, now, eventId, watchlistId).changes > 0;
  }
}
