#!/usr/bin/env bun
/**
 * PDF dossier figures: cold render and cached serve times (p50/p95, in-process through the whole
 * app: auth, quota, lookup, render or cache read), bytes per report, and requests/s for cached
 * reports over HTTP (wrk on loopback against `serve`, bounded by --seconds). Run it alone:
 *   npx bun run scripts/bench-report.ts [--index var/bench/national.sqlite]
 *     [--samples 200] [--seconds 10] [--connections 32]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FacilityIndex, connectionOf } from '../src/index/facility-index';
import { renderReport } from '../src/reports/document';
import { buildReportView } from '../src/reports/view';
import { fmt, requireWrk, runWrk, startChild } from './bench/wrk';
import { inProcessApp } from './bench/in-process-app';

const { values } = parseArgs({
  options: { index: { type: 'string' }, samples: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } },
});
const indexPath = values.index ?? 'var/bench/national.sqlite';
const samples = Number(values.samples ?? 200);
const seconds = Math.min(60, Number(values.seconds ?? 10));
const connections = Number(values.connections ?? 32);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build the national one (docs/ingest.md), or pass --index data/sample.sqlite (npm run sample builds it)`);
  process.exit(2);
}
requireWrk();

const root = join(import.meta.dir, '..');
const work = mkdtempSync(join(tmpdir(), 'fcs-bench-report-'));
const index = FacilityIndex.open(indexPath);
const facilities = index.info.facility_count;
// Random facilities, not the first rows, so names, lengths and scores vary.
const drawn = (connectionOf(index).query('SELECT registry_id FROM facility ORDER BY random() LIMIT ?').all(2 * samples) as { registry_id: string }[]).map((r) => r.registry_id);
// the second half only warms the app path up (JIT), so measured misses are first exports of their facility
const ids = drawn.slice(0, samples);
const warmIds = drawn.slice(samples);

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
  const t0 = performance.now();
  const r = await f();
  return [performance.now() - t0, r];
};

console.log(`index: ${indexPath} (${facilities.toLocaleString()} facilities, fictitious=${index.info.fictitious}); ${ids.length} facilities sampled; ${new Date().toISOString()}`);

// 1. The renderer alone: view + pdf-lib layout + save.
// The JIT needs a few hundred renders before pdf-lib runs at full speed; measure after that.
for (let i = 0; i < 300; i++) await renderReport(buildReportView(index.getDetail(ids[i % ids.length]!)!, index.info, { generatedAt: Date.now(), documentId: '0000000000000000' }));
const renderMs: number[] = [];
const bytes: number[] = [];
const cpuBefore = process.cpuUsage();
for (const id of ids) {
  const row = index.getDetail(id)!;
  const [ms, pdf] = await timed(() => renderReport(buildReportView(row, index.info, { generatedAt: Date.now(), documentId: '0000000000000000' })));
  renderMs.push(ms);
  bytes.push(pdf.length);
}
const cpu = process.cpuUsage(cpuBefore);
// CPU time is what a render costs on a quiet machine; wall time also counts other processes' turns.
const renderCpuMs = (cpu.user + cpu.system) / 1000 / ids.length;

// 2. The whole app in-process: first export of each facility (MISS: render + store), then again (HIT).
const app = await inProcessApp(index, work, join(work, 'cache-inproc'));
const key = app.key;
const post = (id: string) => app.handle(new Request(`http://localhost/api/v1/facility/${id}/report`, { method: 'POST', headers: { 'x-api-key': key } }));
for (const id of [...warmIds, ...warmIds]) await (await post(id)).arrayBuffer();
const missMs: number[] = [];
const hitMs: number[] = [];
for (const [phase, sink, want] of [['miss', missMs, 'MISS'], ['hit', hitMs, 'HIT']] as const) {
  for (const id of ids) {
    const [ms, res] = await timed(async () => {
      const r = await post(id);
      await r.arrayBuffer();
      return r;
    });
    if (res.status !== 200 || res.headers.get('x-cache') !== want) throw new Error(`${phase} ${id}: ${res.status} ${res.headers.get('x-cache')}`);
    sink.push(ms);
  }
}

// 3. Cached reports over HTTP: a real server process, every sampled report warmed, wrk round-robin.
const server = await startChild(
  [process.execPath, join(root, 'src/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', work],
  /"port":(\d+)/,
  { FCS_LOG_REQUESTS: '0', FCS_REPORT_CACHE_DIR: join(work, 'cache-http') },
);
const port = server.output.match(/"port":(\d+)/)![1];
const base = `http://127.0.0.1:${port}`;
let wrkResult;
let lookupResult;
try {
  for (const id of ids) {
    const r = await fetch(`${base}/api/v1/facility/${id}/report`, { method: 'POST', headers: { 'x-api-key': key } });
    if (r.status !== 200) throw new Error(`warm-up ${id}: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  }
  const lua = join(work, 'report.lua');
  writeFileSync(
    lua,
    `local ids = {${ids.map((i) => `"${i}"`).join(',')}}
local n = 0
wrk.method = "POST"
wrk.headers["X-API-Key"] = "${key}"
request = function()
  n = n + 1
  return wrk.format(nil, "/api/v1/facility/" .. ids[(n % #ids) + 1] .. "/report")
end
`,
  );
  // The JSON lookup of the same facilities on the same server, for scale (same auth and quota path).
  const lookupLua = join(work, 'lookup.lua');
  writeFileSync(lookupLua, readFileSync(lua, 'utf8').replace('wrk.method = "POST"', 'wrk.method = "GET"').replace(' .. "/report")', ')'));
  runWrk(`${base}/`, { connections, seconds: 2, luaPath: lua }); // warm-up: JIT, page cache
  wrkResult = runWrk(`${base}/`, { connections, seconds, luaPath: lua });
  runWrk(`${base}/`, { connections, seconds: 2, luaPath: lookupLua });
  lookupResult = runWrk(`${base}/`, { connections, seconds, luaPath: lookupLua });
} finally {
  server.stop();
  rmSync(work, { recursive: true, force: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log('');
console.log('| figure | p50 | p95 |');
console.log('|---|---|---|');
console.log(`| render only (view + pdf-lib + save), ms wall | ${fmt(percentile(renderMs, 50))} | ${fmt(percentile(renderMs, 95))} |`);
console.log(`| render only, ms of process CPU per render (mean) | ${fmt(renderCpuMs)} | |`);
console.log(`| cold export through the app (MISS: auth, quota, lookup, render, store), ms | ${fmt(percentile(missMs, 50))} | ${fmt(percentile(missMs, 95))} |`);
console.log(`| cached export through the app (HIT: auth, quota, lookup, cache), ms | ${fmt(percentile(hitMs, 50))} | ${fmt(percentile(hitMs, 95))} |`);
console.log('');
console.log(`bytes per report: mean ${Math.round(mean(bytes)).toLocaleString()}, min ${Math.min(...bytes).toLocaleString()}, max ${Math.max(...bytes).toLocaleString()}`);
console.log(
  `cached reports over HTTP (wrk -t1 -c${connections} -d${seconds}s, ${ids.length} facilities round-robin): ${fmt(wrkResult!.rps, 0)} req/s, ` +
    `p50 ${fmt(wrkResult!.p50ms)} ms, p99 ${fmt(wrkResult!.p99ms)} ms, non-2xx ${wrkResult!.non2xx}, socket errors ${wrkResult!.errors}`,
);
console.log(
  `for scale, GET /facility/{id} of the same facilities on the same server: ${fmt(lookupResult!.rps, 0)} req/s, p50 ${fmt(lookupResult!.p50ms)} ms ` +
    `(cached report / lookup = ${fmt(wrkResult!.rps / lookupResult!.rps)})`,
);
process.exit(0);
