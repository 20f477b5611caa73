import { afterAll, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { cliKey, startReplicas, type Replica } from '../../replicas/cluster';
import { historyIndexFile } from '../../support/history-index';
import { QUICK_WEBHOOK_ENV, manyChanges } from '../../support/many-changes';
import { RedisServer } from '../../support/redis-server';
import { startReceiver } from '../../support/webhook-receiver';
import { tempDir } from '../../support/temp-dir';

const dir = tempDir('webhook-replicas');
let redis: RedisServer | undefined;
let replicas: Replica[] = [];
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it('two replicas on one Redis, both reloading a new release: each event is delivered once', async () => {
  redis = await RedisServer.start();
  const world = manyChanges(60);
  const indexPath = join(dir, 'index.sqlite');
  historyIndexFile(indexPath, world.release1.rows, world.release1.releases, world.release1.history);
  const receiver = startReceiver(async () => {
    await Bun.sleep(20);
    return new Response('ok');
  });
  replicas = await startReplicas(2, { redisUrl: redis.url, indexPath, stateDir: dir, env: QUICK_WEBHOOK_ENV });

  const { key } = cliKey(redis.url, 'enterprise');
  const made = await fetch(`${replicas[0]!.base}/api/v1/watchlists`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'shared', registry_ids: world.ids, webhook_url: receiver.url() }),
  });
  expect(made.status).toBe(201);
  const { data } = (await made.json()) as { data: { id: string; webhook_secret: string } };

  // The weekly cycle: the next release replaces the file, and both replicas are told (SIGHUP).
  historyIndexFile(indexPath, world.release2.rows, world.release2.releases, world.release2.history);
  for (const r of replicas) r.proc.kill('SIGHUP');
  await Promise.all(replicas.map((r) => r.waitForLine((l) => l.msg === 'index reloaded')));

  const end = Date.now() + 20_000;
  while (new Set(receiver.received.map((r) => r.id)).size < 60 && Date.now() < end) await Bun.sleep(20);
  // Longer than the lease: a second delivery of anything would have come by now.
  await Bun.sleep(Number(QUICK_WEBHOOK_ENV.FCS_WEBHOOK_LEASE_MS) + 500);
  receiver.stop();

  const wh = new Webhook(data.webhook_secret);
  const facilities = receiver.received.map((r) => (wh.verify(r.body, r.headers) as { data: { registry_id: string } }).data.registry_id);
  expect(facilities.sort()).toEqual(world.ids);
  expect(new Set(receiver.received.map((r) => r.id)).size).toBe(60);

  const deliveries = await fetch(`${replicas[1]!.base}/api/v1/watchlists/${data.id}/deliveries?limit=500`, { headers: { 'x-api-key': key } });
  const body = (await deliveries.json()) as { data: { deliveries: { status: string; attempts: unknown[] }[] } };
  expect(body.data.deliveries.length).toBe(60);
  expect(body.data.deliveries.every((d) => d.status === 'delivered' && d.attempts.length === 1)).toBe(true);
}, 60_000);
