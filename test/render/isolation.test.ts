import { afterAll, describe, expect, it } from 'bun:test';
import { DEFAULT_ROWS, json, makeWorld } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from '../site-report/fixtures';
import { gatedPool, watch } from './gate';
import { tempDir } from '../support/temp-dir';

const HOUSTON = { lat: 29.7604, lng: -95.3698 };
const ROWS = [...DEFAULT_ROWS, ...scatter(rng(11), HOUSTON, 200, 1.5, 990_400_000_000).map((g) => g.row)];
const LOOKUP_ID = DEFAULT_ROWS[0]!.registry_id;

/** A world whose render pool holds every job until the test opens its gate. */
async function heldWorld(pool: Parameters<typeof gatedPool>[0] = {}) {
  const gate = gatedPool(pool);
  const world = makeWorld({ rows: ROWS, config: { reportCacheDir: tempDir('render-isolation') }, deps: { renderPool: gate.pool } });
  const a = await world.keyFor('platform');
  const b = await world.keyFor('platform');
  let n = 0;
  const siteReport = (key: string, format = 'pdf', body: Record<string, unknown> = {}) =>
    world.call(`/api/v1/site-report?format=${format}`, {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      // a new name each time: a new document, never a cache hit
      body: JSON.stringify({ ...HOUSTON, name: `site ${++n}`, ...body }),
    });
  const usageOf = (accountId: string) => world.store.monthlyUsage(accountId, world.clock());
  return { gate, world, a, b, siteReport, usageOf };
}

const opened: { pool: { close(): void } }[] = [];
afterAll(() => opened.forEach((g) => g.pool.close()));

describe("one account's renders do not hold up another account", () => {
  it("another account's lookup is answered while an account's site report PDF is still being rendered", async () => {
    const { gate, world, a, b, siteReport } = await heldWorld();
    opened.push(gate);
    gate.hold();
    const report = watch(siteReport(a.key));
    await gate.started(1);
    const lookup = await world.call(`/api/v1/facility/${LOOKUP_ID}`, { key: b.key });
    expect(lookup.status).toBe(200);
    expect((await json(lookup)).data.registry_id).toBe(LOOKUP_ID);
    expect(report.settled()).toBe(false);
    gate.open();
    const res = await report.promise;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect(new TextDecoder().decode((await res.bytes()).subarray(0, 5))).toBe('%PDF-');
  });

  it("another account's lookup is answered while an account's site report JSON and a dossier are still being made", async () => {
    const { gate, world, a, b, siteReport } = await heldWorld();
    opened.push(gate);
    gate.hold();
    const report = watch(siteReport(a.key, 'json'));
    const dossier = watch(world.call(`/api/v1/facility/${LOOKUP_ID}/report`, { method: 'POST', key: a.key }));
    await gate.started(1);
    expect((await world.call(`/api/v1/facility/${LOOKUP_ID}`, { key: b.key })).status).toBe(200);
    expect(report.settled() || dossier.settled()).toBe(false);
    gate.open();
    const body = await json(await report.promise);
    expect(body.data.findings.length).toBeGreaterThan(0);
    expect((await dossier.promise).headers.get('content-type')).toBe('application/pdf');
  });
});

describe('the limits of heavy requests', () => {
  it("an account's third concurrent render is 429 RATE_LIMIT_EXCEEDED with Retry-After and is not counted; another account's is let in", async () => {
    const { gate, world, a, b, siteReport, usageOf } = await heldWorld({ perAccount: 2, queue: 4 });
    opened.push(gate);
    gate.hold();
    const first = siteReport(a.key), second = siteReport(a.key);
    await gate.started(1);
    // the second waits in the queue, its place already taken
    const before = await usageOf(a.accountId);
    const third = await siteReport(a.key);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const err = (await json(third)).error;
    expect(err.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(err.message).toContain('at most 2 at a time');
    expect(await usageOf(a.accountId)).toBe(before);
    expect(await (await world.call('/metrics')).text()).toContain('fcs_render_refusals_total{reason="account"} 1');
    const other = watch(siteReport(b.key));
    gate.open();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect((await other.promise).status).toBe(200);
    expect(await usageOf(a.accountId)).toBe(2);
    // its places were given back: the account renders again
    expect((await siteReport(a.key)).status).toBe(200);
  });

  it('with every worker busy and the queue full, a render is 503 SERVICE_UNAVAILABLE with Retry-After and is not counted', async () => {
    const { gate, world, a, b, siteReport, usageOf } = await heldWorld({ workers: 1, queue: 1, perAccount: 2 });
    opened.push(gate);
    gate.hold();
    const running = siteReport(a.key), waiting = siteReport(b.key);
    await gate.started(1);
    const c = await world.keyFor('enterprise');
    const full = await siteReport(c.key, 'csv');
    expect(full.status).toBe(503);
    const metrics = await (await world.call('/metrics')).text();
    expect(metrics).toContain('fcs_render_refusals_total{reason="busy"} 1');
    expect(metrics).toContain('fcs_render_jobs{state="running"} 1');
    expect(metrics).toContain('fcs_render_jobs{state="waiting"} 1');
    expect(metrics).toContain('fcs_render_workers 1');
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await json(full)).error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await usageOf(c.accountId)).toBe(0);
    gate.open();
    expect([(await running).status, (await waiting).status]).toEqual([200, 200]);
    expect(gate.pool.state.waiting).toBe(0);
  });

  it("a cached PDF is served while the account's renders fill its limit", async () => {
    const { gate, world, a, siteReport } = await heldWorld({ perAccount: 2 });
    opened.push(gate);
    gate.open();
    const dossier = () => world.call(`/api/v1/facility/${LOOKUP_ID}/report`, { method: 'POST', key: a.key });
    expect((await dossier()).headers.get('x-cache')).toBe('MISS');
    gate.hold();
    const held = [siteReport(a.key), siteReport(a.key)];
    await gate.started(2);
    const hit = await dossier();
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    gate.open();
    for (const r of await Promise.all(held)) expect(r.status).toBe(200);
  });
});

describe('a render worker that dies', () => {
  it('fails its request with a 500 INTERNAL_ERROR envelope, given back, and is replaced for the next', async () => {
    const { gate, world, a, siteReport, usageOf } = await heldWorld({ workers: 1 });
    opened.push(gate);
    const deaths = async () => /^fcs_render_worker_deaths_total (\d+)$/m.exec(await (await world.call('/metrics')).text())?.[1];
    expect(await deaths()).toBe('0');
    gate.crashNext(true);
    gate.open();
    const res = await siteReport(a.key);
    expect(res.status).toBe(500);
    const body = await json(res);
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(body.error.message).not.toContain('crashed on purpose');
    expect(await usageOf(a.accountId)).toBe(0);
    expect(gate.logs.some((l) => String(l.msg).includes('render worker died'))).toBe(true);
    expect(await deaths()).toBe('1');
    gate.crashNext(false);
    const next = await siteReport(a.key);
    expect(next.status).toBe(200);
    expect(gate.pool.state.workers).toBe(1);
  });
});

describe('one pool across index reloads', () => {
  it("answers each app from its own index: a report after a reload lists the new index's facilities", async () => {
    const gate = gatedPool();
    opened.push(gate);
    gate.open();
    const near = (id: string) => ({ ...DEFAULT_ROWS[2]!, registry_id: id, fac_name: `NEIGHBOUR ${id}`, lat: HOUSTON.lat + 0.001 });
    const before = makeWorld({ rows: [near('990000000101')], deps: { renderPool: gate.pool } });
    const after = makeWorld({ rows: [near('990000000202')], deps: { renderPool: gate.pool } });
    const findings = async (w: typeof before) => {
      const { key } = await w.keyFor('platform');
      const res = await w.call('/api/v1/site-report', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(HOUSTON) });
      return (await json(res)).data.findings.map((f: { registry_id: string }) => f.registry_id);
    };
    expect(await findings(before)).toEqual(['990000000101']);
    expect(await findings(after)).toEqual(['990000000202']);
    expect(await findings(before)).toEqual(['990000000101']);
    expect(gate.pool.state.workers).toBe(1);
  });
});
