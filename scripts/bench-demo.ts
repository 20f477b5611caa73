#!/usr/bin/env bun
/**
 * Demo lookup figures, in-process (app.handle, offline geocoder) on a national-scale index:
 *   npx bun run scripts/bench-demo.ts [--index var/bench/national.sqlite] [--lookups 3000]
 * Prints p50/p95/p99 of found and not-found demo lookups, and the heap held by 100,000 distinct
 * IPs' rate-limit buckets. On a shared machine, run one benchmark at a time.
 */
import { prepareSpatial } from '../src/ops/index-preparer';
import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApp } from '../src/api/app';
import { processParts } from '../src/api/deps';
import { makeConfig } from '../src/config';
import { normalizeAddressKey } from '../src/address/address';
import { nearestFacilityId } from '../src/demo/nearest-facility';
import { FacilityIndex } from '../src/index/facility-index';
import { SqliteStateStore } from '../src/state/sqlite-store';
import { WindowLimiter } from '../src/state/window-limiter';

const { values } = parseArgs({ options: { index: { type: 'string' }, lookups: { type: 'string' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const lookups = Number(values.lookups ?? 3000);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build one with scripts/generate-sample.ts + ingest (docs/ingest.md), or pass --index`);
  process.exit(2);
}

type Row = { fac_street: string; fac_city: string; fac_state: string; fac_zip: string; address_key: string; lat: number; lng: number };
const raw = new Database(indexPath, { readonly: true });
const facilities = (raw.query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
const sample = raw.query(`SELECT fac_street, fac_city, fac_state, fac_zip, a.address_key, lat, lng FROM facility f JOIN facility_address a ON a.registry_id = f.registry_id ORDER BY random() LIMIT ${lookups}`).all() as Row[];
raw.close();

// The index's facility_address table was filled at ingest by the normalizeAddressKey of that day.
const stale = sample.filter((r) => r.address_key !== normalizeAddressKey(r.fac_street, r.fac_state)).length;
if (stale > 0) {
  console.error(`${stale} of ${sample.length} sampled rows have an address_key the current normalizeAddressKey would not produce: the index predates it; rebuild it (ingest) before trusting these figures`);
}

const index = FacilityIndex.open(indexPath);
let t0 = performance.now();
// What serve does: the release's area file in place, else built on a worker thread.
const spatial = prepareSpatial(index, () => {});
const spatialIndex = await spatial.ready;
console.log(`spatial index (once per index, at serve start, for /area and the external-geocoder path): ${spatialIndex.origin === 'stored' ? 'loaded' : 'built'} in ${(performance.now() - t0).toFixed(0)} ms`);
let peer = 0;
// Each request from its own peer, so the limit measures its cost but never refuses.
const config = makeConfig({ logRequests: false });
const app = createApp({
  ...processParts(config, Date.now, () => {}),
  config,
  index,
  spatial,
  store: new SqliteStateStore(':memory:'),
  clock: Date.now,
  log: () => {},
  peerAddress: () => `10.${(peer >> 16) & 255}.${(peer >> 8) & 255}.${peer++ & 255}`,
});

async function time(addresses: string[], expectStatus: number): Promise<number[]> {
  const ms: number[] = [];
  let wrong = 0;
  for (const a of addresses) {
    const t0 = performance.now();
    const res = await app.handle(new Request(`http://localhost/api/v1/demo/facility?address=${encodeURIComponent(a)}`));
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
    if (res.status !== expectStatus) wrong++;
  }
  if (wrong > 0) console.log(`  note: ${wrong} of ${addresses.length} answered other than ${expectStatus}`);
  return ms.sort((a, b) => a - b);
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(3);

const found = sample.map((r) => `${r.fac_street}, ${r.fac_city}, ${r.fac_state} ${r.fac_zip}`);
const foundNoCommas = sample.map((r) => `${r.fac_street} ${r.fac_city} ${r.fac_state}`);
const missing = sample.map((r, i) => `${90000 + i} Nonexistent Blvd, ${r.fac_city}, ${r.fac_state} ${r.fac_zip}`);

console.log(`index: ${indexPath} (${facilities.toLocaleString()} facilities); ${lookups} lookups each; ${new Date().toISOString()}; bun ${Bun.version}`);
// Heap held by the in-process limiter's buckets for 100,000 distinct IPs (the demo's key form),
// measured first, on a quiet heap, each limiter kept alive until the end.
function heap(): number {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
}
const kept: WindowLimiter[] = [];
for (const hitsPerIp of [1, 5]) {
  const limiter = new WindowLimiter(1_000_000);
  const before = heap();
  const now = Date.now();
  for (let h = 0; h < hitsPerIp; h++) {
    for (let i = 0; i < 100_000; i++) limiter.hit(`demo:ip4:100.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 5, 3_600_000, now + h);
  }
  const bytes = heap() - before;
  kept.push(limiter);
  console.log(`limiter, 100,000 IPs x ${hitsPerIp} hit(s): ${(bytes / 1e6).toFixed(1)} MB heap (${Math.round(bytes / 100_000)} bytes/IP), ${limiter.size} keys`);
}
await time(found.slice(0, 200), 200); // warm-up
for (const [label, list, status] of [
  ['found, "street, city, ST zip"', found, 200],
  ['found, "street city ST" (no commas)', foundNoCommas, 200],
  ['not found (404)', missing, 404],
] as const) {
  const s = await time(list, status);
  console.log(`demo lookup ${label}: p50 ${pct(s, 50)} ms, p95 ${pct(s, 95)} ms, p99 ${pct(s, 99)} ms`);
}


// The external-geocoder path: nearest facility within 0.1 mile of a point ~100 ft from a facility.
const near: number[] = [];
let none = 0;
for (const r of sample) {
  t0 = performance.now();
  if (nearestFacilityId(spatialIndex, r.lat + 0.0003, r.lng, 0.1) === null) none++;
  near.push(performance.now() - t0);
}
near.sort((a, b) => a - b);
console.log(`nearest facility within 0.1 mi (external-geocoder path, after the geocoder answered): p50 ${pct(near, 50)} ms, p99 ${pct(near, 99)} ms${none ? `, ${none} found none` : ''}`);
index.close();
