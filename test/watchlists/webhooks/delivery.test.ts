import { afterEach, describe, expect, it } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { generateKey } from '../../../src/access/key-format';
import { makeConfig, type Config } from '../../../src/config';
import { SqliteStateStore } from '../../../src/state/sqlite-store';
import { WebhookDispatcher } from '../../../src/watchlists/webhooks/dispatcher';
import { emitReleaseEvents } from '../../../src/watchlists/webhooks/release-events';
import type { WatchlistRecord } from '../../../src/watchlists/model';
import { historyIndex } from '../../support/history-index';
import { A, B, C, D, HISTORY, HISTORY_2, RELEASES, RELEASES_2, ROWS_2, ROWS_3 } from '../../support/release-fixture';
import { startReceiver } from '../../support/webhook-receiver';
import type { Tier } from '../../../src/tiers';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const FAST = { webhookAllow: ['127.0.0.1/32'], webhookRetryBaseMs: 50, webhookRetryMaxMs: 200, webhookTimeoutMs: 300, webhookLeaseMs: 1000, webhookPollMs: 20 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An account with a live key on a plan with watchlists: the owner its lists need to be live. */
async function liveAccount(store: SqliteStateStore, tier: Tier = 'platform'): Promise<string> {
  const account = await store.createAccount({ name: 'owner', subject: '', tier, monthlyLimit: null, now: Date.now() });
  const k = generateKey();
  await store.setKey(account.id, k.hash, k.prefix, Date.now());
  return account.id;
}

const accountsOf = (store: SqliteStateStore) => (id: string) => store.getAccount(id);

function list(url: string, o: Partial<WatchlistRecord> = {}): WatchlistRecord {
  return { id: 'wl_00000000000000a1', account_id: 'acct_a', name: 'p', registry_ids: [A, B, C, D], rule: null, webhook_url: url, webhook_secret: SECRET, base_as_of: '2026-10-01', created_at: '2026-10-02T00:00:00.000Z', updated_at: '2026-10-02T00:00:00.000Z', ...o };
}

async function setup(answer?: Parameters<typeof startReceiver>[0], settings: Partial<Config> = {}, o: Partial<WatchlistRecord> = {}, path = '/hook') {
  const receiver = startReceiver(answer);
  const store = new SqliteStateStore(':memory:');
  cleanups.push(() => receiver.stop(), () => store.close());
  await store.watch.createWatchlist(list(receiver.url(path), { account_id: await liveAccount(store), ...o }), 10);
  const dispatcher = new WebhookDispatcher({ watch: store.watch, accounts: accountsOf(store), settings: makeConfig({ ...FAST, ...settings }), log: () => undefined, clock: Date.now });
  const index = historyIndex(ROWS_2, RELEASES_2, HISTORY_2);
  await emitReleaseEvents({ index: index, watch: store.watch, accounts: accountsOf(store), now: Date.now(), log: () => undefined });
  return { receiver, store, dispatcher };
}

/** Rounds until `done` or 3 s. */
async function until(dispatcher: WebhookDispatcher, done: () => boolean | Promise<boolean>) {
  const end = Date.now() + 3000;
  while (!(await done()) && Date.now() < end) {
    await dispatcher.tick();
    await Bun.sleep(10);
  }
}

describe('webhook delivery to a real receiver', () => {
  it('each matching change arrives once, signed so that the standardwebhooks package verifies it', async () => {
    const { receiver, dispatcher } = await setup();
    await dispatcher.tick();
    expect(receiver.received.length).toBe(3);
    const wh = new Webhook(SECRET);
    const payloads = receiver.received.map((r) => wh.verify(r.body, r.headers) as any);
    expect(payloads.map((p) => [p.data.registry_id, p.type]).sort()).toEqual([
      [A, 'facility.score_changed'],
      [B, 'facility.enforcement_started'],
      [C, 'facility.removed'],
    ]);
    const a = payloads.find((p) => p.data.registry_id === A);
    expect(a.data).toEqual({ watchlist_id: 'wl_00000000000000a1', type: 'facility.score_changed', registry_id: A, fac_name: `TEST FACILITY ${A}`, as_of: '2026-10-08', previous_as_of: '2026-10-01', overall_score: 70, previous_score: 80, active_enforcement: false, previous_enforcement: false, score_method: 'fcs-2.0', reason: 'data_and_method' });
    expect(a.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const r of receiver.received) {
      expect(r.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(r.headers['content-type']).toBe('application/json');
    }
  });

  it('a signature made with another secret does not verify (the check can fail)', async () => {
    const { receiver, dispatcher } = await setup();
    await dispatcher.tick();
    const other = new Webhook('whsec_' + Buffer.from('another secret of 24 byt').toString('base64'));
    expect(() => other.verify(receiver.received[0]!.body, receiver.received[0]!.headers)).toThrow();
  });

  it('a receiver answering 500 then 200 gets the event twice with the same webhook-id, and the attempts show it', async () => {
    const { receiver, store, dispatcher } = await setup((nth) => new Response(nth === 1 ? 'busy' : 'ok', { status: nth === 1 ? 500 : 200 }), {}, { registry_ids: [A] });
    await until(dispatcher, () => receiver.received.length >= 2);
    expect(receiver.received.length).toBe(2);
    expect(receiver.received[0]!.id).toBe(receiver.received[1]!.id);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d).toMatchObject({ id: receiver.received[0]!.id, status: 'delivered', next_attempt_at: null });
    expect(d!.attempts.map((a) => [a.status_code, a.error, a.response_excerpt])).toEqual([[500, 'HTTP 500', 'busy'], [200, null, 'ok']]);
  });

  it('a redirect is not followed: the attempt fails with the 3xx and the other URL is never called', async () => {
    const { receiver, store, dispatcher } = await setup(() => new Response(null, { status: 302, headers: { location: '/elsewhere' } }), {}, { registry_ids: [A] });
    await dispatcher.tick();
    expect(receiver.received.map((r) => r.path)).toEqual(['/hook']);
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d!.attempts[0]).toMatchObject({ status_code: 302, error: 'redirect not followed' });
    expect(d!.status).toBe('pending');
  });

  it('a receiver slower than the timeout counts as a failed attempt', async () => {
    const { store, dispatcher } = await setup(async () => {
      await Bun.sleep(1000);
      return new Response('late');
    }, {}, { registry_ids: [A] });
    const started = performance.now();
    await dispatcher.tick();
    expect(performance.now() - started).toBeLessThan(900);
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d!.attempts[0]).toMatchObject({ status_code: null, error: 'no answer within 300 ms' });
  });

  it('only a short excerpt of the answer is stored', async () => {
    const { store, dispatcher } = await setup(() => new Response('x'.repeat(100_000), { status: 500 }), {}, { registry_ids: [A] });
    await dispatcher.tick();
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d!.attempts[0]!.response_excerpt).toBe('x'.repeat(256));
  });

  it('retries back off exponentially and the delivery is marked failed past the give-up window', async () => {
    const { receiver, store, dispatcher } = await setup(() => new Response('no', { status: 503 }), { webhookGiveUpMs: 1000, webhookRetryMaxMs: 10_000 }, { registry_ids: [A] });
    await until(dispatcher, async () => (await store.watch.listDeliveries('wl_00000000000000a1', 1))[0]!.status === 'failed');
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d!.status).toBe('failed');
    // Waits of 50, 100, 200, 400 ms fit in the 1 s window; the next (800) would not: five attempts.
    expect(d!.attempts.length).toBe(5);
    expect(receiver.received.length).toBe(5);
    const gaps = d!.attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(d!.attempts[i]!.at));
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(50 * 2 ** i));
  });

  it('a target the allow-list no longer names fails at once and is not called', async () => {
    const { receiver, store, dispatcher } = await setup(undefined, { webhookAllow: ['hooks.example.com'] }, { registry_ids: [A] });
    await dispatcher.tick();
    expect(receiver.received.length).toBe(0);
    const [d] = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(d!.status).toBe('failed');
    expect(d!.attempts[0]!.error).toContain('allow-list');
  });

  it('the dispatcher started in the background delivers by itself and stops cleanly', async () => {
    const { receiver, dispatcher } = await setup();
    dispatcher.start();
    const end = Date.now() + 3000;
    while (receiver.received.length < 3 && Date.now() < end) await Bun.sleep(10);
    await dispatcher.stop();
    expect(receiver.received.length).toBe(3);
  });
});

describe('turning releases into events', () => {
  it('a release is turned into events once: a restart on it queues nothing, the next release only its own', async () => {
    const store = new SqliteStateStore(':memory:');
    cleanups.push(() => store.close());
    await store.watch.createWatchlist(list('http://127.0.0.1:9/h', { account_id: await liveAccount(store) }), 10);
    const r2 = historyIndex(ROWS_2, RELEASES_2, HISTORY_2);
    const emit = (ix: typeof r2) => emitReleaseEvents({ index: ix, watch: store.watch, accounts: accountsOf(store), now: Date.now(), log: () => undefined });
    expect(await emit(r2)).toBe(3);
    expect(await emit(r2)).toBe(0);
    expect(await emit(historyIndex(ROWS_3, RELEASES, HISTORY))).toBe(2);
    const ds = await store.watch.listDeliveries('wl_00000000000000a1', 10);
    expect(ds.map((d) => [d.as_of, d.registry_id]).sort()).toEqual([['2026-10-08', A], ['2026-10-08', B], ['2026-10-08', C], ['2026-10-15', A], ['2026-10-15', D]]);
  });

  it('a list gets no events for releases it was made after, nor for a release already turned into events', async () => {
    const store = new SqliteStateStore(':memory:');
    cleanups.push(() => store.close());
    await store.watch.createWatchlist(list('http://127.0.0.1:9/h', { base_as_of: '2026-10-08', account_id: await liveAccount(store) }), 10);
    const r3 = historyIndex(ROWS_3, RELEASES, HISTORY);
    expect(await emitReleaseEvents({ index: r3, watch: store.watch, accounts: accountsOf(store), now: Date.now(), log: () => undefined })).toBe(2);
    expect((await store.watch.listDeliveries('wl_00000000000000a1', 10)).every((d) => d.as_of === '2026-10-15')).toBe(true);
  });

  it('event ids come from list, release and facility: the same release turned into events again (a crash before it was marked) gives the same ids', async () => {
    const store = new SqliteStateStore(':memory:');
    cleanups.push(() => store.close());
    const owner = await liveAccount(store);
    await store.watch.createWatchlist(list('http://127.0.0.1:9/h', { account_id: owner }), 10);
    const r2 = historyIndex(ROWS_2, RELEASES_2, HISTORY_2);
    await emitReleaseEvents({ index: r2, watch: store.watch, accounts: accountsOf(store), now: Date.now(), log: () => undefined });
    const fresh = new SqliteStateStore(':memory:');
    cleanups.push(() => fresh.close());
    // The same release in a store that never marked it: same ids, so a second enqueue into the first store adds nothing.
    const ids = (await store.watch.listDeliveries('wl_00000000000000a1', 10)).map((d) => d.id).sort();
    await fresh.watch.createWatchlist(list('http://127.0.0.1:9/h', { account_id: owner }), 10);
    await emitReleaseEvents({ index: r2, watch: fresh.watch, accounts: accountsOf(store), now: Date.now() + 5000, log: () => undefined });
    expect((await fresh.watch.listDeliveries('wl_00000000000000a1', 10)).map((d) => d.id).sort()).toEqual(ids);
  });
});
