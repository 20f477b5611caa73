import { afterAll, expect, it } from 'bun:test';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { generateKey } from '../../../src/access/key-format';
import { SqliteStateStore } from '../../../src/state/sqlite-store';
import { historyIndexFile } from '../../support/history-index';
import { QUICK_WEBHOOK_ENV, manyChanges } from '../../support/many-changes';
import { MAIN, ROOT, spawnService, type Service } from '../../support/process';
import { startReceiver } from '../../support/webhook-receiver';
import { tempDir } from '../../support/temp-dir';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const dir = tempDir('webhook-crash');
const services: Service[] = [];
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

it('serve killed with SIGKILL mid-delivery, then restarted: every event arrives at least once, duplicates share their webhook-id', async () => {
  const world = manyChanges(40);
  const indexPath = join(dir, 'index.sqlite');
  historyIndexFile(indexPath, world.release2.rows, world.release2.releases, world.release2.history);
  // Answers take 300 ms, so deliveries are still in flight when the process dies.
  let slow = true;
  const receiver = startReceiver(async () => {
    if (slow) await Bun.sleep(300);
    return new Response('ok');
  });
  const stateDir = join(dir, 'state');
  mkdirSync(stateDir);
  const seed = new SqliteStateStore(join(stateDir, 'state.sqlite'));
  // The owner: a live key on a plan with watchlists (a dormant account's lists get no deliveries).
  const owner = await seed.createAccount({ name: 'crash', subject: '', tier: 'enterprise', monthlyLimit: null, now: Date.now() });
  const k = generateKey();
  await seed.setKey(owner.id, k.hash, k.prefix, Date.now());
  await seed.watch.createWatchlist(
    { id: 'wl_00000000000000c1', account_id: owner.id, name: 'crash', registry_ids: world.ids, rule: null, webhook_url: receiver.url(), webhook_secret: SECRET, base_as_of: '2026-10-01', created_at: '2026-10-02T00:00:00.000Z', updated_at: '2026-10-02T00:00:00.000Z' },
    10,
  );
  const start = () => spawnService([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', stateDir], { cwd: ROOT, env: { ...process.env, ...QUICK_WEBHOOK_ENV } });

  const first = await start();
  services.push(first);
  const deadline = Date.now() + 10_000;
  while (receiver.received.length < 5 && Date.now() < deadline) await Bun.sleep(5);
  expect(receiver.received.length).toBeGreaterThanOrEqual(5);
  await first.stop('SIGKILL');
  const beforeRestart = receiver.received.length;
  expect(beforeRestart).toBeLessThan(40);

  slow = false;
  const second = await start();
  services.push(second);
  // Done when the outbox says so: the events the dead process had leased come back after their lease.
  const end = Date.now() + 20_000;
  const allDelivered = async () => (await seed.watch.listDeliveries('wl_00000000000000c1', 100)).every((d) => d.status === 'delivered');
  while (!(await allDelivered()) && Date.now() < end) await Bun.sleep(50);
  receiver.stop();
  expect(await allDelivered()).toBe(true);
  await seed.close();

  const wh = new Webhook(SECRET);
  const idsByFacility = new Map<string, Set<string>>();
  for (const r of receiver.received) {
    const p = wh.verify(r.body, r.headers) as { data: { registry_id: string } };
    idsByFacility.set(p.data.registry_id, (idsByFacility.get(p.data.registry_id) ?? new Set()).add(r.id));
  }
  expect([...idsByFacility.keys()].sort()).toEqual(world.ids);
  for (const ids of idsByFacility.values()) expect(ids.size).toBe(1);
  // The deliveries cut off by the kill were sent again after their lease: some events did arrive twice.
  expect(receiver.received.length).toBeGreaterThan(40);
  // The restart did not turn the release into events a second time.
  expect(second.lines.some((l) => l.msg === 'release turned into webhook events')).toBe(false);
}, 60_000);
