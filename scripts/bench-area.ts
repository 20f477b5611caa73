#!/usr/bin/env bun
/**
 * Radius search and portfolio figures on a national-scale index:
 *   npx bun run scripts/bench-area.ts [--index var/bench/national.sqlite]
 *       [--reps 10] [--resolutions 5,6,7] [--no-http] [--no-rtree]
 * Prints: spatial-index build time and memory; the 20 densest metros; p50/p99 in-process for
 * radius 1/5/10/25 mi x limit 100/500 x sort distance/score (at each resolution asked for); the same
 * queries by brute force over every facility and by a SQLite R*Tree table, each checked against the
 * fast answer; the same queries over HTTP against a served index; a 500-ID portfolio over HTTP.
 * Targets (25 mi, limit 100, densest metros, in-process): p50 <= 3 ms, p99 <= 10 ms; portfolio p50 <= 5 ms.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { findWithinRadius } from '../src/area/service';
import { SITE_BIT } from '../src/index/site-facts';
import { AREA_H3_RES, type SpatialIndex } from '../src/area/spatial-index';
import { buildSpatialIndex } from '../src/index/area/spatial-columns';
import { loadSpatialFile, spatialFilePath, writeSpatialFile } from '../src/index/area/spatial-file';
import { indexIdentity } from '../src/index/identity';
import { searchRadius, type RadiusQuery } from '../src/area/spatial-search';
import { DEG, EARTH_RADIUS_MILES, cosLat, haversinePre } from '../src/area/geo';
import { Database } from 'bun:sqlite';
import { FacilityIndex } from '../src/index/facility-index';
import { benchKey, fmt, randomIds, startChild } from './bench/wrk';

const { values } = parseArgs({
  options: { index: { type: 'string' }, reps: { type: 'string' }, resolutions: { type: 'string' }, 'no-http': { type: 'boolean' }, 'no-rtree': { type: 'boolean' } },
});
const indexPath = values.index ?? 'var/bench/national.sqlite';
const reps = Number(values.reps ?? 10);
const resolutions = (values.resolutions ?? String(AREA_H3_RES)).split(',').map(Number);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: make one with scripts/generate-sample.ts and \`ingest\` (docs/ingest.md), or pass --index`);
  process.exit(2);
}

const RADII = [1, 5, 10, 25];
const LIMITS = [100, 500];
const SORTS = ['distance', 'score'] as const;
type Combo = { radius: number; limit: number; sort: (typeof SORTS)[number] };
const COMBOS: Combo[] = RADII.flatMap((radius) => LIMITS.flatMap((limit) => SORTS.map((sort) => ({ radius, limit, sort }))));

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const query = (m: { lat: number; lng: number }, c: Combo): RadiusQuery => ({ lat: m.lat, lng: m.lng, radiusMiles: c.radius, limit: c.limit, sort: c.sort, state: null, activeEnforcement: null });

/** Same centre nudged a little each repetition (up to ~0.7 mi), so no two timed queries are identical. */
const jitter = (m: { lat: number; lng: number }, r: number) => ({ lat: m.lat + Math.sin(r * 2.4) * 0.01, lng: m.lng + Math.cos(r * 2.4) * 0.01 });

function timeAll(run: (q: RadiusQuery) => unknown, metros: { lat: number; lng: number }[], c: Combo, n: number): number[] {
  const times: number[] = [];
  for (let r = 0; r < n; r++) {
    for (const m of metros) {
      const q = query(jitter(m, r), c);
      const t0 = performance.now();
      run(q);
      times.push(performance.now() - t0);
    }
  }
  return times;
}

const index = FacilityIndex.open(indexPath);
const facilities = index.info.facility_count;
console.log(`# bench-area ${new Date().toISOString()}\nindex: ${indexPath} (${facilities.toLocaleString()} facilities); Bun ${Bun.version}\n`);

/** Anonymous (private, non-file) memory of this process: what the spatial index really costs, unlike RSS, which also counts the index file's mmapped pages. */
const anonBytes = () => Number(/^Anonymous:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))?.[1] ?? NaN) * 1024;
Bun.gc(true);
const anon0 = anonBytes();
const spatial = buildSpatialIndex(index, AREA_H3_RES);
Bun.gc(true);
const anon1 = anonBytes();
console.log(`## Spatial index (res ${AREA_H3_RES})\nbuilt from the facility table in ${(spatial.buildMs / 1000).toFixed(2)} s; ${spatial.cellLat.length.toLocaleString()} cells; typed arrays ${mb(spatialBytes(spatial))}; anonymous memory +${mb(anon1 - anon0)} after GC (RSS ${mb(process.memoryUsage().rss)}, mostly the mmapped index file)`);
{
  const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-area-file-'));
  const copy = join(dir, 'x.area');
  let t0 = performance.now();
  writeSpatialFile(copy, spatial, 'bench');
  const writeMs = performance.now() - t0;
  t0 = performance.now();
  const back = loadSpatialFile(copy, 'bench', AREA_H3_RES);
  console.log(`area file: written in ${writeMs.toFixed(0)} ms, mapped back in ${(performance.now() - t0).toFixed(1)} ms (${back.ok && back.spatial.count === spatial.count ? 'complete' : 'BROKEN'})`);
  rmSync(dir, { recursive: true, force: true });
  t0 = performance.now();
  const release = loadSpatialFile(spatialFilePath(indexPath), indexIdentity(index.info), AREA_H3_RES);
  console.log(`the release's own ${spatialFilePath(indexPath)}: ${release.ok ? `used in place in ${(performance.now() - t0).toFixed(1)} ms` : `not usable (${release.reason}): serve builds it on a worker thread`}\n`);
}

const metros = densestMetros(spatial, 20);
console.log(`## 20 densest metros (facilities within 25 mi)\n${metros.map((m) => `${m.lat.toFixed(3)},${m.lng.toFixed(3)} ${m.within25.toLocaleString()}`).join(' | ')}\n`);

// Warm up the JIT on every combination before timing anything.
for (const c of COMBOS) timeAll((q) => findWithinRadius(spatial, q, SITE_BIT.insufficientData), metros, c, 2);

console.log('## In-process (service call: search + names from SQLite), ms');
const byRes = new Map<number, SpatialIndex>([[AREA_H3_RES, spatial]]);
for (const res of resolutions) if (!byRes.has(res)) byRes.set(res, buildSpatialIndex(index, res));
console.log(`| radius | limit | sort | ${[...byRes.keys()].map((r) => `res ${r} p50 | res ${r} p99 | res ${r} search p50 | res ${r} search p99`).join(' | ')} |`);
console.log(`|---|---|---|${[...byRes.keys()].map(() => '---|---|---|---').join('|')}|`);
for (const c of COMBOS) {
  const cells = [...byRes.values()].map((s) => {
    timeAll((q) => findWithinRadius(s, q, SITE_BIT.insufficientData), metros, c, 1);
    const t = timeAll((q) => findWithinRadius(s, q, SITE_BIT.insufficientData), metros, c, reps);
    const search = timeAll((q) => searchRadius(s, q), metros, c, reps);
    return `${fmt(pct(t, 50))} | ${fmt(pct(t, 99))} | ${fmt(pct(search, 50))} | ${fmt(pct(search, 99))}`;
  });
  console.log(`| ${c.radius} | ${c.limit} | ${c.sort} | ${cells.join(' | ')} |`);
}
for (const [res, s] of byRes) if (res !== AREA_H3_RES) console.log(`(res ${res}: build ${(s.buildMs / 1000).toFixed(2)} s, ${s.cellLat.length.toLocaleString()} cells)`);
byRes.clear();

console.log('\n## Baselines (search only, no names), ms; each answer checked against the fast search');
const rtree = values['no-rtree'] ? null : buildRtree(index);
if (rtree) console.log(`R*Tree table built in ${(rtree.buildMs / 1000).toFixed(1)} s`);
console.log('| radius | limit | sort | fast p50 | fast p99 | brute force p50 | brute force p99 | R*Tree p50 | R*Tree p99 | mismatches |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
let mismatches = 0;
for (const c of COMBOS) {
  const fast = timeAll((q) => searchRadius(spatial, q), metros, c, reps);
  const key = (hits: { rank: number; distance: number }[]) => hits.map((h) => `${h.rank}@${h.distance}`).join();
  const brute: number[] = [], rt: number[] = [];
  let bad = 0;
  for (const m of metros) {
    const q = query(m, c);
    const want = key(searchRadius(spatial, q).map((h) => ({ rank: spatial.rank[h.pos]!, distance: h.distance })));
    let t0 = performance.now();
    const b = bruteForceScan(spatial, q);
    brute.push(performance.now() - t0);
    if (key(b) !== want) bad++;
    if (rtree) {
      t0 = performance.now();
      const r = rtreeSearch(rtree, q);
      rt.push(performance.now() - t0);
      if (key(r) !== want) bad++;
    }
  }
  mismatches += bad;
  const rtCols = rtree ? `${fmt(pct(rt, 50))} | ${fmt(pct(rt, 99))}` : 'n/a | n/a';
  console.log(`| ${c.radius} | ${c.limit} | ${c.sort} | ${fmt(pct(fast, 50))} | ${fmt(pct(fast, 99))} | ${fmt(pct(brute, 50))} | ${fmt(pct(brute, 99))} | ${rtCols} | ${bad} |`);
}
console.log(`total mismatches against the fast search: ${mismatches}`);
rtree?.close();

if (!values['no-http']) await overHttp();
index.close();

async function overHttp() {
  const root = join(import.meta.dir, '..');
  const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-area-'));
  const main = join(root, 'src/main.ts');
  const key = benchKey(['--state-dir', dir]);
  const t0 = performance.now();
  const server = await startChild([process.execPath, main, 'serve', '--index', indexPath, '--port', '0', '--host', '127.0.0.1', '--state-dir', dir], /"port":(\d+)/, { FCS_LOG_REQUESTS: '0' });
  const port = server.output.match(/"port":(\d+)/)![1];
  const base = `http://127.0.0.1:${port}`;
  const headers = { 'x-api-key': key };
  // Until the area index is ready the area search answers 503 + Retry-After: poll for the first 200.
  let first: Response;
  let early = 0;
  for (;;) {
    first = await fetch(`${base}/api/v1/area?lat=${metros[0]!.lat}&lng=${metros[0]!.lng}&radius_miles=1`, { headers });
    if (first.status !== 503) break;
    early++;
    await Bun.sleep(20);
  }
  const serverAnon = () => `${mb(Number(/^Anonymous:\s+(\d+) kB/m.exec(readFileSync(`/proc/${server.pid}/smaps_rollup`, 'utf8'))?.[1]) * 1024)}`;
  console.log(`\n## Over HTTP (one client, sequential, loopback), ms\nserver start to first area 200: ${((performance.now() - t0) / 1000).toFixed(2)} s (status ${first.status}, ${early} 503s before); server anonymous memory after start ${serverAnon()}`);
  try {
    console.log('| radius | limit | sort | p50 | p99 | bytes |');
    console.log('|---|---|---|---|---|---|');
    for (const c of COMBOS) {
      const times: number[] = [];
      let bytes = 0;
      for (let r = 0; r < Math.max(3, Math.ceil(reps / 2)); r++) {
        for (const m of metros) {
          const j = jitter(m, r);
          const t = performance.now();
          const res = await fetch(`${base}/api/v1/area?lat=${j.lat}&lng=${j.lng}&radius_miles=${c.radius}&limit=${c.limit}&sort=${c.sort}`, { headers });
          const body = await res.arrayBuffer();
          times.push(performance.now() - t);
          if (res.status !== 200) throw new Error(`area ${res.status}`);
          bytes = body.byteLength;
        }
      }
      console.log(`| ${c.radius} | ${c.limit} | ${c.sort} | ${fmt(pct(times, 50))} | ${fmt(pct(times, 99))} | ${bytes} |`);
    }
    const { ids } = randomIds(indexPath);
    const times: number[] = [];
    for (let r = 0; r < 220; r++) {
      const batch = ids.slice((r * 500) % 19_500, ((r * 500) % 19_500) + 490).concat(Array.from({ length: 10 }, (_, i) => `9${r}${i}`));
      const t = performance.now();
      const res = await fetch(`${base}/api/v1/portfolio`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ registry_ids: batch }) });
      const body = (await res.json()) as { data: { total: number; not_found: string[] } };
      if (r >= 20) times.push(performance.now() - t);
      if (res.status !== 200 || body.data.total !== 490 || body.data.not_found.length !== 10) throw new Error(`portfolio ${res.status}`);
    }
    console.log(`\nportfolio of 500 IDs (490 known, 10 unknown) over HTTP: p50 ${fmt(pct(times, 50))} ms, p99 ${fmt(pct(times, 99))} ms (${times.length} requests)`);
    console.log(`server anonymous memory at the end: ${serverAnon()}`);
  } finally {
    server.stop();
  }
}

// ---- Baselines and helpers -------------------------------------------------------------------

/** A facility found by a baseline: its registry_id-order rank and exact distance. */
type Found = { rank: number; distance: number; score: number };

function ordered(found: Found[], q: RadiusQuery): Found[] {
  found.sort(q.sort === 'score' ? (a, b) => a.score - b.score || a.distance - b.distance || a.rank - b.rank : (a, b) => a.distance - b.distance || a.rank - b.rank);
  return found.slice(0, q.limit);
}

/** Every facility's distance, no cells, no pruning (over the same typed arrays, so no row decoding). */
function bruteForceScan(s: SpatialIndex, q: RadiusQuery): Found[] {
  const found: Found[] = [];
  const qcos = cosLat(q.lat);
  for (let k = 0; k < s.count; k++) {
    const d = haversinePre(q.lat, q.lng, qcos, s.lat[k]!, s.lng[k]!, s.cos[k]!);
    if (d <= q.radiusMiles) found.push({ rank: s.rank[k]!, distance: d, score: s.score[k]! });
  }
  return ordered(found, q);
}

type Rtree = { close(): void; buildMs: number; query: ReturnType<Database['query']> };

/** A SQLite R*Tree over every facility's point, with the columns a search needs beside it. */
function buildRtree(ix: FacilityIndex): Rtree {
  const t0 = performance.now();
  const path = join(tmpdir(), `fcs-bench-rtree-${process.pid}.sqlite`);
  rmSync(path, { force: true });
  const db = new Database(path, { create: true });
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -524288;');
  db.exec(`ATTACH '${ix.file}' AS ix`);
  db.exec(`CREATE TABLE fac (id INTEGER PRIMARY KEY, lat REAL, lng REAL, score INTEGER, active INTEGER, state TEXT);
    INSERT INTO fac SELECT row_number() OVER (ORDER BY registry_id) - 1, lat, lng, overall_score, active_enforcement, fac_state FROM ix.facility;
    CREATE VIRTUAL TABLE rt USING rtree(id, min_lat, max_lat, min_lng, max_lng);
    INSERT INTO rt SELECT id, lat, lat, lng, lng FROM fac;`);
  db.exec('DETACH ix');
  const query = db.query('SELECT f.id, f.lat, f.lng, f.score FROM rt JOIN fac f ON f.id = rt.id WHERE rt.min_lat >= ? AND rt.max_lat <= ? AND rt.min_lng >= ? AND rt.max_lng <= ?');
  return { buildMs: performance.now() - t0, query, close: () => (db.close(), rmSync(path, { force: true })) };
}

/** Bounding box of the circle from the R*Tree, then the exact distance test (metros: no antimeridian). */
function rtreeSearch(rt: Rtree, q: RadiusQuery): Found[] {
  const dLat = q.radiusMiles / EARTH_RADIUS_MILES / DEG;
  const dLng = Math.asin(Math.min(1, Math.sin(q.radiusMiles / EARTH_RADIUS_MILES) / Math.cos(q.lat * DEG))) / DEG;
  const qcos = cosLat(q.lat);
  const found: Found[] = [];
  const rows = rt.query.all(q.lat - dLat * 1.001, q.lat + dLat * 1.001, q.lng - dLng * 1.001, q.lng + dLng * 1.001) as { id: number; lat: number; lng: number; score: number }[];
  for (const r of rows) {
    const d = haversinePre(q.lat, q.lng, qcos, r.lat, r.lng, cosLat(r.lat));
    if (d <= q.radiusMiles) found.push({ rank: r.id, distance: d, score: r.score });
  }
  return ordered(found, q);
}

/** Centres of the `n` most crowded cells at least 60 miles apart, with their 25-mile counts. */
function densestMetros(s: SpatialIndex, n: number): { lat: number; lng: number; within25: number }[] {
  const cells = Array.from({ length: s.cellLat.length }, (_, c) => c).sort((a, b) => s.cellStart[b + 1]! - s.cellStart[b]! - (s.cellStart[a + 1]! - s.cellStart[a]!));
  const picked: { lat: number; lng: number; within25: number }[] = [];
  for (const c of cells) {
    if (picked.length === n) break;
    const lat = s.cellLat[c]!, lng = s.cellLng[c]!;
    if (picked.some((p) => haversinePre(p.lat, p.lng, cosLat(p.lat), lat, lng, cosLat(lat)) < 60)) continue;
    picked.push({ lat, lng, within25: 0 });
  }
  for (const p of picked) {
    const qcos = cosLat(p.lat);
    for (let k = 0; k < s.count; k++) if (haversinePre(p.lat, p.lng, qcos, s.lat[k]!, s.lng[k]!, s.cos[k]!) <= 25) p.within25++;
  }
  return picked.sort((a, b) => b.within25 - a.within25);
}

function spatialBytes(s: SpatialIndex): number {
  return Object.values(s).reduce((sum: number, v) => sum + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
}
