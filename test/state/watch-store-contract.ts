import { describe, expect, it } from 'bun:test';
import type { StateStore } from '../../src/state/store';
import { freshStores } from './fresh-stores';
import type { OutboxEvent } from '../../src/state/watch-store';
import type { Attempt, WatchlistRecord } from '../../src/watchlists/model';

const NOW = Date.UTC(2026, 10, 15, 12);

function list(id: string, account: string, o: Partial<WatchlistRecord> = {}): WatchlistRecord {
  return { id, account_id: account, name: `list ${id}`, registry_ids: ['990000000001'], rule: null, webhook_url: null, webhook_secret: null, base_as_of: '2026-10-01', created_at: '2026-11-15T12:00:00.000Z', updated_at: '2026-11-15T12:00:00.000Z', ...o };
}

function event(id: string, watchlist: string, createdAt = NOW): OutboxEvent {
  return { id, watchlist_id: watchlist, type: 'facility.score_changed', registry_id: '990000000001', as_of: '2026-10-08', body: `{"n":"${id}"}`, created_at: createdAt };
}

const attempt = (status: number | null): Attempt => ({ at: new Date(NOW).toISOString(), status_code: status, error: status === 200 ? null : 'HTTP 500', response_excerpt: 'ok', duration_ms: 3 });

/** Watchlists and the outbox, the same in every StateStore (SQLite, Redis). `open` gives a fresh, empty store. */
export function watchStoreContract(name: string, open: () => Promise<StateStore>) {
  describe(`${name} watch store contract`, () => {
    const freshStore = freshStores(open);
    const fresh = async () => (await freshStore()).watch;

    it('a created list reads back whole, only for its own account', async () => {
      const w = await fresh();
      const l = list('wl_0000000000000001', 'acct_a', { rule: { type: 'score_dropped', min_points: 5 }, webhook_url: 'http://127.0.0.1:9/x', webhook_secret: 'whsec_x' });
      expect(await w.createWatchlist(l, 5)).toBe(true);
      expect(await w.getWatchlist(l.id, 'acct_a')).toEqual(l);
      expect(await w.getWatchlist(l.id)).toEqual(l);
      expect(await w.getWatchlist(l.id, 'acct_b')).toBeNull();
      expect(await w.getWatchlist('wl_ffffffffffffffff')).toBeNull();
    });

    it('an account cannot go past its number of lists, and others are not affected', async () => {
      const w = await fresh();
      expect(await w.createWatchlist(list('wl_0000000000000001', 'acct_a'), 2)).toBe(true);
      expect(await w.createWatchlist(list('wl_0000000000000002', 'acct_a'), 2)).toBe(true);
      expect(await w.createWatchlist(list('wl_0000000000000003', 'acct_a'), 2)).toBe(false);
      expect(await w.createWatchlist(list('wl_0000000000000004', 'acct_b'), 2)).toBe(true);
      expect((await w.listWatchlists('acct_a')).map((l) => l.id)).toEqual(['wl_0000000000000001', 'wl_0000000000000002']);
      expect(await w.getWatchlist('wl_0000000000000003')).toBeNull();
    });

    it('concurrent creations never overshoot the number of lists', async () => {
      const w = await fresh();
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => w.createWatchlist(list(`wl_00000000000000${String(i).padStart(2, '0')}`, 'acct_a'), 3)));
      expect(results.filter(Boolean).length).toBe(3);
      expect((await w.listWatchlists('acct_a')).length).toBe(3);
    });

    it('updates replace the list and keep the webhook set in step; another account cannot update or delete', async () => {
      const w = await fresh();
      const l = list('wl_0000000000000001', 'acct_a');
      await w.createWatchlist(l, 5);
      expect(await w.webhookWatchlists()).toEqual([]);
      const hooked = { ...l, webhook_url: 'http://127.0.0.1:9/x', webhook_secret: 'whsec_x' };
      expect(await w.updateWatchlist(hooked)).toBe(true);
      expect(await w.webhookWatchlists()).toEqual([hooked]);
      expect(await w.updateWatchlist({ ...hooked, account_id: 'acct_b', name: 'stolen' })).toBe(false);
      expect(await w.deleteWatchlist(l.id, 'acct_b')).toBe(false);
      expect((await w.getWatchlist(l.id))!.name).toBe(l.name);
      expect(await w.updateWatchlist({ ...hooked, webhook_url: null, webhook_secret: null })).toBe(true);
      expect(await w.webhookWatchlists()).toEqual([]);
      expect(await w.deleteWatchlist(l.id, 'acct_a')).toBe(true);
      expect(await w.getWatchlist(l.id)).toBeNull();
      expect(await w.listWatchlists('acct_a')).toEqual([]);
      expect(await w.updateWatchlist(hooked)).toBe(false);
    });

    it('summaries are the lists without their IDs, with the count, oldest first, and follow every update', async () => {
      const w = await fresh();
      const ids = Array.from({ length: 300 }, (_, i) => String(990000000000 + i));
      const a = list('wl_0000000000000001', 'acct_a', { registry_ids: ids });
      const b = list('wl_0000000000000002', 'acct_a', { webhook_url: 'http://127.0.0.1:9/x', webhook_secret: 'whsec_x' });
      await w.createWatchlist(a, 5);
      await w.createWatchlist(b, 5);
      await w.createWatchlist(list('wl_0000000000000003', 'acct_b'), 5);
      const { registry_ids: _a, ...restA } = a;
      const { registry_ids: _b, ...restB } = b;
      expect(await w.watchlistSummaries('acct_a')).toEqual([
        { ...restA, registry_id_count: 300 },
        { ...restB, registry_id_count: 1 },
      ]);
      await w.updateWatchlist({ ...a, name: 'renamed', registry_ids: ids.slice(0, 7) });
      expect((await w.watchlistSummaries('acct_a'))[0]).toMatchObject({ name: 'renamed', registry_id_count: 7 });
      expect((await w.watchlistSummaries('acct_a'))[0]).not.toHaveProperty('registry_ids');
      await w.deleteWatchlist(a.id, 'acct_a');
      expect((await w.watchlistSummaries('acct_a')).map((s) => s.id)).toEqual([b.id]);
      expect(await w.watchlistSummaries('acct_c')).toEqual([]);
    });

    it('a release marked done stays done', async () => {
      const w = await fresh();
      expect(await w.releaseDone('2026-10-08')).toBe(false);
      await w.markReleaseDone('2026-10-08');
      await w.markReleaseDone('2026-10-08');
      expect(await w.releaseDone('2026-10-08')).toBe(true);
      expect(await w.releaseDone('2026-10-15')).toBe(false);
    });

    it('enqueueing is idempotent on the event id', async () => {
      const w = await fresh();
      expect(await w.enqueue([event('msg_1', 'wl_1'), event('msg_2', 'wl_1')], NOW)).toBe(2);
      expect(await w.enqueue([event('msg_2', 'wl_1'), event('msg_3', 'wl_1')], NOW)).toBe(1);
      expect((await w.listDeliveries('wl_1', 10)).map((d) => d.id).sort()).toEqual(['msg_1', 'msg_2', 'msg_3']);
    });

    it('a claim leases due events: nobody gets them again until the lease runs out', async () => {
      const w = await fresh();
      await w.enqueue([event('msg_1', 'wl_1'), event('msg_2', 'wl_1')], NOW);
      const first = await w.claimDue(NOW, 10, 1000);
      expect(first.map((e) => e.id).sort()).toEqual(['msg_1', 'msg_2']);
      expect(first[0]).toMatchObject({ watchlist_id: 'wl_1', attempts: 0, retry_from: NOW, created_at: NOW });
      expect(first.find((e) => e.id === 'msg_1')!.body).toBe('{"n":"msg_1"}');
      expect(await w.claimDue(NOW + 999, 10, 1000)).toEqual([]);
      expect((await w.claimDue(NOW + 1000, 10, 1000)).length).toBe(2);
    });

    it('a claim passes over the lists it is told to skip, however many of their events come first', async () => {
      const w = await fresh();
      await w.enqueue(Array.from({ length: 30 }, (_, i) => event(`msg_busy_${String(i).padStart(2, '0')}`, 'wl_busy', NOW - 100 + i)), NOW - 100);
      await w.enqueue([event('msg_free_1', 'wl_free'), event('msg_other', 'wl_other')], NOW);
      const claimed = await w.claimDue(NOW, 2, 1000, ['wl_busy']);
      expect(claimed.map((e) => e.id).sort()).toEqual(['msg_free_1', 'msg_other']);
      // the skipped ones were not leased: claimable at once without the skip
      expect((await w.claimDue(NOW, 50, 1000)).length).toBe(30);
    });

    it('released events are due again when told, with no attempt recorded; a finished one is not revived', async () => {
      const w = await fresh();
      await w.enqueue([event('msg_1', 'wl_1'), event('msg_2', 'wl_1'), event('msg_3', 'wl_1')], NOW);
      expect((await w.claimDue(NOW, 10, 60_000)).length).toBe(3);
      await w.recordAttempt('msg_2', attempt(200), { status: 'delivered' });
      await w.release(['msg_1', 'msg_2', 'msg_3'], NOW + 5);
      await w.release([], NOW);
      expect(await w.claimDue(NOW + 4, 10, 1000)).toEqual([]);
      const again = await w.claimDue(NOW + 5, 10, 1000);
      expect(again.map((e) => [e.id, e.attempts]).sort()).toEqual([['msg_1', 0], ['msg_3', 0]]);
      expect((await w.listDeliveries('wl_1', 10)).find((d) => d.id === 'msg_2')!.status).toBe('delivered');
    });

    it('concurrent claims hand each event to one claimer', async () => {
      const w = await fresh();
      await w.enqueue(Array.from({ length: 30 }, (_, i) => event(`msg_${i}`, 'wl_1')), NOW);
      const claims = await Promise.all(Array.from({ length: 6 }, () => w.claimDue(NOW, 7, 60_000)));
      const ids = claims.flat().map((e) => e.id);
      expect(ids.length).toBe(30);
      expect(new Set(ids).size).toBe(30);
    });

    it('attempts are recorded in order; delivered and failed events are never claimed again', async () => {
      const w = await fresh();
      await w.enqueue([event('msg_1', 'wl_1'), event('msg_2', 'wl_1', NOW + 1)], NOW);
      await w.claimDue(NOW, 10, 1000);
      await w.recordAttempt('msg_1', attempt(500), { status: 'pending', nextAttemptAt: NOW + 5000 });
      await w.recordAttempt('msg_2', attempt(500), { status: 'failed' });
      expect(await w.claimDue(NOW + 4999, 10, 1000)).toEqual([]);
      const again = await w.claimDue(NOW + 5000, 10, 1000);
      expect(again.map((e) => [e.id, e.attempts])).toEqual([['msg_1', 1]]);
      await w.recordAttempt('msg_1', attempt(200), { status: 'delivered' });
      expect(await w.claimDue(NOW + 999_999, 10, 1000)).toEqual([]);
      const ds = await w.listDeliveries('wl_1', 10);
      expect(ds.map((d) => [d.id, d.status, d.attempts.map((a) => a.status_code), d.next_attempt_at])).toEqual([
        ['msg_2', 'failed', [500], null],
        ['msg_1', 'delivered', [500, 200], null],
      ]);
      expect(ds[1]).toMatchObject({ type: 'facility.score_changed', registry_id: '990000000001', as_of: '2026-10-08', created_at: new Date(NOW).toISOString() });
      expect(ds[1]!.attempts[0]).toEqual(attempt(500));
    });

    it('a pending delivery shows its next attempt; the list is newest first and capped', async () => {
      const w = await fresh();
      await w.enqueue([event('msg_1', 'wl_1', NOW), event('msg_2', 'wl_1', NOW + 1), event('msg_3', 'wl_1', NOW + 2)], NOW);
      const ds = await w.listDeliveries('wl_1', 2);
      expect(ds.map((d) => d.id)).toEqual(['msg_3', 'msg_2']);
      expect(ds[0]).toMatchObject({ status: 'pending', next_attempt_at: new Date(NOW).toISOString(), attempts: [] });
      expect(await w.listDeliveries('wl_2', 10)).toEqual([]);
    });

    it('redelivery makes a finished event due again with the same id and a fresh retry window, only on its own list', async () => {
      const w = await fresh();
      await w.enqueue([event('msg_1', 'wl_1')], NOW);
      await w.claimDue(NOW, 10, 1000);
      await w.recordAttempt('msg_1', attempt(500), { status: 'failed' });
      expect(await w.redeliver('wl_2', 'msg_1', NOW + 10)).toBe(false);
      expect(await w.redeliver('wl_1', 'msg_9', NOW + 10)).toBe(false);
      expect(await w.redeliver('wl_1', 'msg_1', NOW + 10)).toBe(true);
      const [again] = await w.claimDue(NOW + 10, 10, 1000);
      expect(again).toMatchObject({ id: 'msg_1', attempts: 1, retry_from: NOW + 10 });
    });

    it('deleting a list drops its outbox entries', async () => {
      const w = await fresh();
      await w.createWatchlist(list('wl_0000000000000001', 'acct_a'), 5);
      await w.enqueue([event('msg_1', 'wl_0000000000000001'), event('msg_2', 'wl_other')], NOW);
      await w.deleteWatchlist('wl_0000000000000001', 'acct_a');
      expect(await w.listDeliveries('wl_0000000000000001', 10)).toEqual([]);
      expect((await w.claimDue(NOW, 10, 1000)).map((e) => e.id)).toEqual(['msg_2']);
    });
  });
}
