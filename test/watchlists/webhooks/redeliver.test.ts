import { afterEach, expect, it } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { WebhookDispatcher } from '../../../src/watchlists/webhooks/dispatcher';
import { emitReleaseEvents } from '../../../src/watchlists/webhooks/release-events';
import { json, makeWorld } from '../../helpers';
import { historyIndex } from '../../support/history-index';
import { A, HISTORY, HISTORY_2, RELEASES, RELEASES_2, ROWS_2, ROWS_3 } from '../../support/release-fixture';
import { startReceiver } from '../../support/webhook-receiver';

const stops: (() => unknown)[] = [];
afterEach(() => stops.splice(0).forEach((s) => s()));

it('through the API: a list made on one release gets the next release signed; deliveries show it; redelivery sends it again with the same id', async () => {
  const receiver = startReceiver();
  stops.push(() => receiver.stop());
  const config = { webhookAllow: ['127.0.0.1/32'], webhookRetryBaseMs: 50 };
  const w = makeWorld({ config, deps: { index: historyIndex(ROWS_2, RELEASES_2, HISTORY_2) } });
  const { key } = await w.keyFor('platform');
  const made = (await json(await w.call('/api/v1/watchlists', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'n', registry_ids: [A], webhook_url: receiver.url() }) }))).data;
  expect(made.base_as_of).toBe('2026-10-08');

  // Release 2 was being served when the list was made: nothing for it. Release 3 arrives.
  const accounts = (id: string) => w.store.getAccount(id);
  const dispatcher = new WebhookDispatcher({ watch: w.store.watch, accounts, settings: w.deps.config, log: () => undefined, clock: Date.now });
  const r2 = historyIndex(ROWS_2, RELEASES_2, HISTORY_2);
  expect(await emitReleaseEvents({ index: r2, watch: w.store.watch, accounts, now: Date.now(), log: () => undefined })).toBe(0);
  const r3 = historyIndex(ROWS_3, RELEASES, HISTORY);
  expect(await emitReleaseEvents({ index: r3, watch: w.store.watch, accounts, now: Date.now(), log: () => undefined })).toBe(1);
  await dispatcher.tick();
  expect(receiver.received.length).toBe(1);
  const payload = new Webhook(made.webhook_secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers) as any;
  expect(payload).toMatchObject({ type: 'facility.score_changed', data: { watchlist_id: made.id, registry_id: A, as_of: '2026-10-15', previous_score: 70, overall_score: 75 } });

  const listed = (await json(await w.call(`/api/v1/watchlists/${made.id}/deliveries`, { key }))).data;
  expect(listed.total).toBe(1);
  const delivery = listed.deliveries[0];
  expect(delivery).toMatchObject({ id: receiver.received[0]!.id, status: 'delivered', registry_id: A, as_of: '2026-10-15', next_attempt_at: null });
  expect(delivery.attempts).toMatchObject([{ status_code: 200, error: null, response_excerpt: 'ok' }]);

  const again = await w.call(`/api/v1/watchlists/${made.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST', key });
  expect(again.status).toBe(202);
  expect((await json(again)).data).toEqual({ id: delivery.id, status: 'pending' });
  await dispatcher.tick();
  expect(receiver.received.map((r) => r.id)).toEqual([delivery.id, delivery.id]);
  const after = (await json(await w.call(`/api/v1/watchlists/${made.id}/deliveries`, { key }))).data.deliveries[0];
  expect(after.attempts.length).toBe(2);

  const unknown = await w.call(`/api/v1/watchlists/${made.id}/deliveries/msg_${'0'.repeat(32)}/redeliver`, { method: 'POST', key });
  expect(unknown.status).toBe(404);
  const other = await w.keyFor('platform');
  expect((await w.call(`/api/v1/watchlists/${made.id}/deliveries/${delivery.id}/redeliver`, { method: 'POST', key: other.key })).status).toBe(404);
});
