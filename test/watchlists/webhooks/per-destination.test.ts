import { afterEach, expect, it } from 'bun:test';
import { generateKey } from '../../../src/access/key-format';
import { makeConfig } from '../../../src/config';
import { SqliteStateStore } from '../../../src/state/sqlite-store';
import type { OutboxEvent } from '../../../src/state/watch-store';
import { IN_FLIGHT, PER_DESTINATION, WebhookDispatcher } from '../../../src/watchlists/webhooks/dispatcher';
import type { WatchlistRecord } from '../../../src/watchlists/model';
import { startBlackhole, startReceiver } from '../../support/webhook-receiver';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tenant(store: SqliteStateStore, listId: string, url: string): Promise<WatchlistRecord> {
  const account = await store.createAccount({ name: listId, subject: '', tier: 'enterprise', monthlyLimit: null, now: Date.now() });
  const k = generateKey();
  await store.setKey(account.id, k.hash, k.prefix, Date.now());
  const list: WatchlistRecord = { id: listId, account_id: account.id, name: listId, registry_ids: [], rule: null, webhook_url: url, webhook_secret: SECRET, base_as_of: '2026-10-01', created_at: '2026-10-02T00:00:00.000Z', updated_at: '2026-10-02T00:00:00.000Z' };
  await store.watch.createWatchlist(list, 100);
  return list;
}

const events = (list: string, n: number, at: number): OutboxEvent[] =>
  Array.from({ length: n }, (_, i) => ({ id: `msg_${list}_${String(i).padStart(3, '0')}`, watchlist_id: list, type: 'facility.score_changed', registry_id: String(990000000000 + i), as_of: '2026-10-08', body: `{"n":${i}}`, created_at: at }));

it("one tenant's dead receiver (accepts, never answers) does not hold up another's: the healthy list gets its events within a couple of seconds", async () => {
  const dead = startBlackhole();
  const healthy = startReceiver();
  const store = new SqliteStateStore(':memory:');
  cleanups.push(() => dead.stop(), () => healthy.stop(), () => store.close());
  const settings = makeConfig({ webhookAllow: ['127.0.0.1/32'], webhookTimeoutMs: 4000, webhookLeaseMs: 30_000, webhookPollMs: 50 });
  await tenant(store, 'wl_dead', dead.url());
  await tenant(store, 'wl_good', healthy.url());
  // The dead list's 60 events were due first (an earlier release), the healthy list's 5 come after them.
  const now = Date.now();
  await store.watch.enqueue(events('wl_dead', 60, now - 1000), now - 1000);
  await store.watch.enqueue(events('wl_good', 5, now), now);

  const dispatcher = new WebhookDispatcher({ watch: store.watch, accounts: (id) => store.getAccount(id), settings, log: () => undefined, clock: Date.now });
  const started = performance.now();
  dispatcher.start();
  while (healthy.received.length < 5 && performance.now() - started < 6000) await Bun.sleep(10);
  const took = performance.now() - started;
  await dispatcher.stop();

  expect(healthy.received.length).toBe(5);
  expect(took).toBeLessThan(2000);
  // The dead destination never had more than its own slots, and its events wait in the outbox, not in a batch.
  expect(dead.state.most).toBeLessThanOrEqual(PER_DESTINATION);
  expect(dead.state.accepted).toBeLessThanOrEqual(PER_DESTINATION);
  const deadDeliveries = await store.watch.listDeliveries('wl_dead', 100);
  expect(deadDeliveries.filter((d) => d.attempts.length > 0).length).toBeLessThanOrEqual(PER_DESTINATION);
  expect(deadDeliveries.every((d) => d.status === 'pending')).toBe(true);
}, 20_000);

it('every destination gets at most its share of slots; many healthy destinations are served side by side, within the global cap', async () => {
  const store = new SqliteStateStore(':memory:');
  cleanups.push(() => store.close());
  let inFlight = 0;
  let most = 0;
  const perDestMost = new Map<string, number>();
  const receivers = Array.from({ length: 4 }, (_, r) => {
    let mine = 0;
    const rec = startReceiver(async () => {
      inFlight++;
      mine++;
      most = Math.max(most, inFlight);
      perDestMost.set(`r${r}`, Math.max(perDestMost.get(`r${r}`) ?? 0, mine));
      await Bun.sleep(40);
      inFlight--;
      mine--;
      return new Response('ok');
    });
    cleanups.push(() => rec.stop());
    return rec;
  });
  const now = Date.now();
  for (const [r, rec] of receivers.entries()) {
    await tenant(store, `wl_r${r}`, rec.url());
    await store.watch.enqueue(events(`wl_r${r}`, 8, now), now);
  }
  const dispatcher = new WebhookDispatcher({ watch: store.watch, accounts: (id) => store.getAccount(id), settings: makeConfig({ webhookAllow: ['127.0.0.1/32'], webhookPollMs: 20 }), log: () => undefined, clock: Date.now });
  expect(await dispatcher.tick()).toBe(32);
  expect(receivers.every((rec) => rec.received.length === 8)).toBe(true);
  expect([...perDestMost.values()].every((n) => n <= PER_DESTINATION)).toBe(true);
  // Four destinations at two each ran side by side.
  expect(most).toBe(4 * PER_DESTINATION);
  expect(most).toBeLessThanOrEqual(IN_FLIGHT);
}, 20_000);
