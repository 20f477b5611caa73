#!/usr/bin/env bun
/**
 * Where the p99 of large responses comes from, printed, never asserted:
 *   bun run scripts/bench-tails.ts --index var/bench/national.sqlite [--n 2000]
 *       [--http-before /path/to/old/checkout --index-before PATH]
 * 1. In-process, one request at a time through `app.handle` (no sockets): area (25 mi, limit 500,
 *    nearest first, at the densest spots) and portfolio (500 IDs). Each request is timed, and the JS
 *    heap size read before and after it: a request during which the heap shrank had a garbage
 *    collection inside it. The slowest 1% are split into "had a GC" and "did not"; the phases
 *    (search, names from SQLite, JSON) are timed on their own.
 * 2. Over HTTP, one sequential client on loopback after warm-up: this checkout's server and, with
 *    --http-before, an older checkout's on its own copy of the index, alternating blocks of requests
 *    so both see the same machine. The machine is shared: compare only figures of one run.
 */
import * as jsc from 'bun:jsc';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../src/api/app';
import { makeConfig } from '../src/config';
import { processParts } from '../src/api/deps';
import { findWithinRadius } from '../src/area/service';
import { SITE_BIT } from '../src/index/site-facts';
import { registryIdAt } from '../src/area/spatial-index';
import { nameAt } from '../src/area/text-bytes';
import { searchRadius, type RadiusQuery } from '../src/area/spatial-search';
import { FacilityIndex } from '../src/index/facility-index';
import { prepareSpatial } from '../src/ops/index-preparer';
import { SqliteStateStore } from '../src/state/sqlite-store';
import { generateKey } from '../src/access/key-format';
import { benchKey, fmt, randomIds, startChild } from './bench/wrk';

const { values } = parseArgs({
  options: { index: { type: 'string' }, n: { type: 'string' }, 'http-before': { type: 'string' }, 'index-before': { type: 'string' }, 'no-http': { type: 'boolean' } },
});
const indexPath = values.index ?? 'var/bench/national.sqlite';
const N = Number(values.n ?? 2000);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const line = (label: string, xs: number[]) => `${label}: p50 ${fmt(pct(xs, 50))} ms, p90 ${fmt(pct(xs, 90))}, p99 ${fmt(pct(xs, 99))}, max ${fmt(Math.max(...xs))} (${xs.length})`;

const index = FacilityIndex.open(indexPath);
const spatial = await prepareSpatial(index, () => {}).ready;
const { ids } = randomIds(indexPath, 20_000);
// Dense spots: the positions of random facilities with at least 500 neighbours within 25 miles.
const spots: { lat: number; lng: number }[] = [];
for (const id of ids) {
  if (spots.length >= 50) break;
  const f = index.getSummary(id)!;
  if (f.lat === null || f.lng === null) continue;
  const q: RadiusQuery = { lat: f.lat, lng: f.lng, radiusMiles: 25, limit: 500, sort: 'distance', state: null, activeEnforcement: null };
  if (searchRadius(spatial, q).length === 500) spots.push({ lat: f.lat, lng: f.lng });
}
console.log(`# bench-tails ${new Date().toISOString()} Bun ${Bun.version}\nindex ${indexPath} (${spatial.count} facilities, area file: ${spatial.origin}); ${spots.length} spots with 500 facilities within 25 mi; load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')} (shared machine)\n`);
const areaQs = (i: number) => {
  const s = spots[i % spots.length]!;
  return `lat=${(s.lat + ((i * 7) % 13) * 0.001).toFixed(5)}&lng=${s.lng.toFixed(5)}&radius_miles=25&limit=500`;
};
const batch = (i: number) => JSON.stringify({ registry_ids: ids.slice((i * 500) % 19_500, ((i * 500) % 19_500) + 500) });

// ---- 1. In-process --------------------------------------------------------------------------
{
  const store = new SqliteStateStore(':memory:');
  const account = await store.createAccount({ name: 'bench', subject: '', tier: 'enterprise', monthlyLimit: 1_000_000_000, now: Date.now() });
  const k = generateKey();
  await store.setKey(account.id, k.hash, k.prefix, Date.now());
  const config = makeConfig({ logRequests: false });
  const app = createApp({ ...processParts(config, Date.now, () => {}), config, index, spatial: prepareSpatial(index, () => {}), store, clock: Date.now, log: () => {} });
  const headers = { 'x-api-key': k.key };
  const calls = {
    area: (i: number) => app.handle(new Request(`http://localhost/api/v1/area?${areaQs(i)}`, { headers })),
    portfolio: (i: number) => app.handle(new Request('http://localhost/api/v1/portfolio', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: batch(i) })),
  };
  console.log('## In-process (app.handle, sequential)');
  for (const [name, call] of Object.entries(calls)) {
    for (let i = 0; i < 300; i++) await (await call(i)).arrayBuffer();
    const times: number[] = [], gc: boolean[] = [], preempted: boolean[] = [], faults: number[] = [];
    for (let i = 0; i < N; i++) {
      const h0 = jsc.heapSize();
      const r0 = process.resourceUsage();
      const t0 = performance.now();
      const res = await call(i);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      const r1 = process.resourceUsage();
      gc.push(jsc.heapSize() < h0);
      preempted.push(r1.involuntaryContextSwitches > r0.involuntaryContextSwitches);
      faults.push(r1.minorPageFault - r0.minorPageFault + (r1.majorPageFault - r0.majorPageFault));
      if (res.status !== 200) throw new Error(`${name} ${res.status}`);
    }
    const cut = pct(times, 99);
    const slow = times.map((t, i) => i).filter((i) => times[i]! >= cut);
    const count = (xs: number[], f: (i: number) => boolean) => xs.filter(f).length;
    const all = times.map((_, i) => i);
    console.log(
      `${line(name, times)}\n  all requests: ${count(all, (i) => gc[i]!)} with a GC inside, ${count(all, (i) => preempted[i]!)} preempted (involuntary context switch), ${count(all, (i) => faults[i]! > 0)} with page faults` +
        `\n  the slowest 1% (${slow.length}, >= ${fmt(cut)} ms): ${count(slow, (i) => gc[i]!)} with a GC, ${count(slow, (i) => preempted[i]!)} preempted, ${count(slow, (i) => faults[i]! > 0)} with page faults, ` +
        `${count(slow, (i) => !gc[i] && !preempted[i] && faults[i] === 0)} with none of these`,
    );
  }
  // Phases of an area request alone; the names both ways (the area file now, SQLite before).
  const phase = { search: [] as number[], 'names from the area file': [] as number[], 'names from SQLite (as before)': [] as number[], json: [] as number[] };
  for (let i = 0; i < N; i++) {
    const s = spots[i % spots.length]!;
    const q: RadiusQuery = { lat: s.lat + ((i * 7) % 13) * 0.001, lng: s.lng, radiusMiles: 25, limit: 500, sort: 'distance', state: null, activeEnforcement: null };
    let t0 = performance.now();
    const hits = searchRadius(spatial, q);
    phase.search.push(performance.now() - t0);
    t0 = performance.now();
    const rows = hits.map((h) => ({ registry_id: registryIdAt(spatial, h.pos), fac_name: nameAt(spatial, h.pos) }));
    phase['names from the area file'].push(performance.now() - t0);
    t0 = performance.now();
    index.getBriefs(rows.map((r) => r.registry_id));
    phase['names from SQLite (as before)'].push(performance.now() - t0);
    t0 = performance.now();
    JSON.stringify({ data: findWithinRadius(spatial, q, SITE_BIT.insufficientData) });
    phase.json.push(performance.now() - t0 - phase.search.at(-1)! - phase['names from the area file'].at(-1)!);
  }
  for (const [name, xs] of Object.entries(phase)) console.log(`  area phase ${line(name, xs)}`);
  store.close();
}

// ---- 2. Over HTTP ---------------------------------------------------------------------------
if (!values['no-http']) {
  type Server = { label: string; base: string; key: string; stop: () => void; dir: string };
  const root = join(import.meta.dir, '..');
  const start = async (label: string, checkout: string, ix: string): Promise<Server> => {
    const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-tails-'));
    const main = join(checkout, 'src/main.ts');
    const key = benchKey(['--state-dir', dir], main);
    const child = await startChild([process.execPath, main, 'serve', '--index', ix, '--port', '0', '--host', '127.0.0.1', '--state-dir', dir], /"port":(\d+)/, { FCS_LOG_REQUESTS: '0' });
    const base = `http://127.0.0.1:${child.output.match(/"port":(\d+)/)![1]}`;
    // Wait until the area search answers (an index without a stored area index builds it first).
    while ((await fetch(`${base}/api/v1/area?${areaQs(0)}`, { headers: { 'x-api-key': key } })).status !== 200) await Bun.sleep(200);
    return { label, base, key, stop: child.stop, dir };
  };
  const servers = [await start('this checkout', root, indexPath)];
  if (values['http-before']) servers.unshift(await start(`before (${values['http-before']})`, values['http-before'], values['index-before'] ?? indexPath));
  const one = async (s: Server, kind: 'area' | 'portfolio', i: number) => {
    const t0 = performance.now();
    const res =
      kind === 'area'
        ? await fetch(`${s.base}/api/v1/area?${areaQs(i)}`, { headers: { 'x-api-key': s.key } })
        : await fetch(`${s.base}/api/v1/portfolio`, { method: 'POST', headers: { 'x-api-key': s.key, 'content-type': 'application/json' }, body: batch(i) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${s.label} ${kind} ${res.status}`);
    return performance.now() - t0;
  };
  console.log('\n## Over HTTP (one sequential client, loopback, after 300 warm-up requests each; blocks of 100 alternate between servers)');
  for (const kind of ['area', 'portfolio'] as const) {
    const times = new Map<Server, number[]>(servers.map((s) => [s, []]));
    for (const s of servers) for (let i = 0; i < 300; i++) await one(s, kind, i);
    for (let b = 0; b < N / 100; b++) for (const s of servers) for (let i = 0; i < 100; i++) times.get(s)!.push(await one(s, kind, b * 100 + i));
    for (const s of servers) console.log(line(`${kind} 500, ${s.label}`, times.get(s)!));
    if (servers.length === 2) console.log(`  p99 after/before: ${fmt(pct(times.get(servers[1]!)!, 99) / pct(times.get(servers[0]!)!, 99))}`);
  }
  for (const s of servers) {
    s.stop();
    rmSync(s.dir, { recursive: true, force: true });
  }
}
index.close();
