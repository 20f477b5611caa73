import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { changesInRelease } from '../../../src/index/history-tables/release-changes';
import { FacilityIndex, connectionOf } from '../../../src/index/facility-index';
import { buildThreeReleases, directDiff, facilityTuples, type ScoreTuple, type ThreeReleases } from '../../history/releases';
import { QUICK_WEBHOOK_ENV } from '../../support/many-changes';
import { MAIN, ROOT, cli, spawnService, type Service } from '../../support/process';
import { startReceiver } from '../../support/webhook-receiver';

// End to end over real releases: the generator's --evolve, ingest --previous, SIGHUP, a real receiver.
let r: ThreeReleases;
let tuples: Map<string, ScoreTuple>[];
const services: Service[] = [];
beforeAll(async () => {
  r = await buildThreeReleases(2000, 0.05);
  tuples = r.plain.map(facilityTuples);
}, 180_000);
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  if (r) rmSync(r.dir, { recursive: true, force: true });
});

function asOfOf(path: string): string {
  const index = FacilityIndex.open(path);
  const asOf = index.info.as_of;
  index.close();
  return asOf;
}

/** The event each watched facility's change must make under "any change", from the direct diff of two plain indexes. */
function expectedEvents(seq: 2 | 3, watched: Set<string>): Map<string, string> {
  const before = tuples[seq - 2]!;
  const after = tuples[seq - 1]!;
  const diff = directDiff(before, after);
  const out = new Map<string, string>();
  for (const id of diff.removed) if (watched.has(id)) out.set(id, 'facility.removed');
  for (const id of diff.changed) {
    if (!watched.has(id)) continue;
    out.set(id, after.get(id)!.active_enforcement === 1 && before.get(id)!.active_enforcement === 0 ? 'facility.enforcement_started' : 'facility.score_changed');
  }
  return out;
}

describe('changesInRelease over releases made by ingest --previous', () => {
  it.each([2, 3] as const)('release %d: exactly the direct diff, with the values before and after', (seq) => {
    const index = FacilityIndex.open(r.chained[2]);
    try {
      const changes = changesInRelease(connectionOf(index), seq);
      const diff = directDiff(tuples[seq - 2]!, tuples[seq - 1]!);
      const ids = (kind: string) => changes.filter((c) => c.kind === kind).map((c) => c.registry_id).sort();
      expect({ added: ids('added'), changed: ids('changed'), removed: ids('removed') }).toEqual(diff);
      for (const c of changes) {
        const before = tuples[seq - 2]!.get(c.registry_id);
        const after = tuples[seq - 1]!.get(c.registry_id);
        expect([c.registry_id, c.previous_score, c.overall_score]).toEqual([c.registry_id, before?.overall_score ?? null, after?.overall_score ?? null]);
        expect(c.previous_enforcement).toBe(before ? before.active_enforcement === 1 : null);
        expect(c.as_of).toBe(index.releases()[seq - 1]!.as_of);
      }
    } finally {
      index.close();
    }
  });
});

it('serve over weekly releases swapped in with SIGHUP: each release sends exactly its watched changes, signed; a restart sends nothing again; /changes agrees', async () => {
  const indexPath = join(r.dir, 'current.sqlite');
  const stateDir = join(r.dir, 'state');
  copyFileSync(r.chained[0], indexPath);
  const receiver = startReceiver();
  const created = cli(['keys', 'create', '--tier', 'enterprise', '--json', '--state-dir', stateDir]);
  expect(created.code).toBe(0);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const start = () => spawnService([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', stateDir], { cwd: ROOT, env: { ...process.env, ...QUICK_WEBHOOK_ENV } });
  let service = await start();
  services.push(service);

  const watched = new Set([...tuples[0]!.keys()]);
  const made = await fetch(`${service.base}/api/v1/watchlists`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'everything of week 1', registry_ids: [...watched], webhook_url: receiver.url() }),
  });
  expect(made.status).toBe(201);
  const list = ((await made.json()) as { data: { id: string; webhook_secret: string } }).data;
  const wh = new Webhook(list.webhook_secret);
  const received = () => receiver.received.map((x) => wh.verify(x.body, x.headers) as { type: string; data: { registry_id: string; as_of: string } });

  async function nextRelease(seq: 2 | 3) {
    copyFileSync(r.chained[seq - 1]!, `${indexPath}.new`);
    // Replace the file whole (a rename), as docs/operations.md's weekly cycle does, then SIGHUP.
    renameSync(`${indexPath}.new`, indexPath);
    const reloaded = service.lines.filter((l) => l.msg === 'index reloaded').length;
    service.proc.kill('SIGHUP');
    await service.waitForLine(() => service.lines.filter((l) => l.msg === 'index reloaded').length > reloaded);
    const expected = expectedEvents(seq, watched);
    const asOf = asOfOf(r.chained[seq - 1]!);
    const end = Date.now() + 20_000;
    while (received().filter((p) => p.data.as_of === asOf).length < expected.size && Date.now() < end) await Bun.sleep(25);
    await Bun.sleep(300);
    const got = new Map(received().filter((p) => p.data.as_of === asOf).map((p) => [p.data.registry_id, p.type]));
    expect(received().filter((p) => p.data.as_of === asOf).length).toBe(expected.size);
    expect(got).toEqual(expected);
    expect(expected.size).toBeGreaterThan(50);
    return { asOf, expected };
  }

  const week2 = await nextRelease(2);
  const week3 = await nextRelease(3);
  expect(receiver.received.length).toBe(week2.expected.size + week3.expected.size);

  // Polling says the same as the webhooks did.
  const polled = (await (await fetch(`${service.base}/api/v1/watchlists/${list.id}/changes?since=${asOfOf(r.chained[0])}`, { headers: { 'x-api-key': key } })).json()) as { data: { changes: { registry_id: string; type: string; as_of: string }[] } };
  expect(polled.data.changes.map((c) => `${c.as_of} ${c.registry_id} ${c.type}`).sort()).toEqual(received().map((p) => `${p.data.as_of} ${p.data.registry_id} ${p.type}`).sort());

  // A restart on the same release: nothing is turned into events again, nothing is sent.
  service.proc.kill('SIGTERM');
  expect(await service.proc.exited).toBe(0);
  service = await start();
  services.push(service);
  await Bun.sleep(1000);
  expect(receiver.received.length).toBe(week2.expected.size + week3.expected.size);
  expect(service.lines.some((l) => l.msg === 'release turned into webhook events')).toBe(false);
  receiver.stop();
}, 120_000);
