#!/usr/bin/env bun
/**
 * Lookup throughput of the full stack (auth + quota + envelope) against a bare Bun.serve in the
 * same run, with wrk on loopback, 64 connections, random IDs over a national-scale index.
 *   npx bun run scripts/bench-lookup.ts [--index var/bench/national.sqlite] [--seconds 8] [--rounds 3] [--ids 200000] [--pin]
 * Both servers run side by side and are measured in alternating rounds, so a slow spell of a shared
 * machine hits both; the figures are per-side medians. Target: ratio >= 0.5, p99 <= 5 ms.
 * A third server, the minimal Elysia + SQLite lookup of the prototype (bench/minimal-lookup-server.ts),
 * runs in the same rounds as a reference: what the framework and the database read cost alone.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCpus, benchKey, fmt, lookupLua, median, randomIds, requireWrk, runWrk, startChild, type WrkResult } from './bench/wrk';

const { values } = parseArgs({
  options: { index: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, rounds: { type: 'string' }, ids: { type: 'string' }, pin: { type: 'boolean' } },
});
const indexPath = values.index ?? 'var/bench/national.sqlite';
const seconds = Number(values.seconds ?? 8);
const connections = Number(values.connections ?? 64);
const rounds = Number(values.rounds ?? 3);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build one with scripts/generate-sample.ts + ingest (docs/ingest.md), or pass --index`);
  process.exit(2);
}
requireWrk();
const root = join(import.meta.dir, '..');
const bun = process.execPath;
const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-lookup-'));
// Unpinned by default, as the lookup figures are defined; --pin puts the server on one core and wrk
// on the other. Pinned, wrk gets a whole core and the bare server (wrk-bound) roughly 1.4x faster,
// while the full server (server-bound) barely moves: the ratio drops. Both are in docs/architecture.md.
const cpus = values.pin ? benchCpus() : null;

// Random IDs drawn from the index (200,000 by default: far more than any row cache could hold
// hot), one picked at random per request.
const { ids, facilities } = randomIds(indexPath, Number(values.ids ?? 200_000));
const lua = lookupLua(join(dir, 'lookup.lua'), ids, benchKey(['--state-dir', dir]));

console.log(
  `index: ${indexPath} (${facilities.toLocaleString()} facilities, ${ids.length.toLocaleString()} random IDs); wrk -t1 -c${connections} -d${seconds}s x ${rounds} rounds; ` +
    `${cpus ? `server on CPU ${cpus.server}, wrk on CPU ${cpus.client}` : values.pin ? 'unpinned (no taskset or one CPU)' : 'unpinned'}; ${new Date().toISOString()}`,
);

const bare = await startChild([bun, join(import.meta.dir, 'bench/bare-server.ts')], /"port":(\d+)/, {}, cpus?.server);
const full = await startChild(
  [bun, join(root, 'src/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', dir],
  /"port":(\d+)/,
  { FCS_LOG_REQUESTS: '0' },
  cpus?.server,
);
const minimal = await startChild([bun, join(import.meta.dir, 'bench/minimal-lookup-server.ts'), indexPath], /"port":(\d+)/, {}, cpus?.server);
const bareUrl = `http://127.0.0.1:${bare.output.match(/"port":(\d+)/)![1]}/`;
const minimalUrl = `http://127.0.0.1:${minimal.output.match(/"port":(\d+)/)![1]}/`;
const fullUrl = `http://127.0.0.1:${full.output.match(/"port":(\d+)/)![1]}/`;
const bareRun = (s: number) => runWrk(bareUrl, { connections, seconds: s, cpu: cpus?.client });
const fullRun = (s: number) => runWrk(fullUrl, { connections, seconds: s, luaPath: lua, cpu: cpus?.client });
const minimalRun = (s: number) => runWrk(minimalUrl, { connections, seconds: s, luaPath: lua, cpu: cpus?.client });

bareRun(2); // warm-up: JIT
fullRun(3); // warm-up: JIT, index pages
minimalRun(2);
const b: WrkResult[] = [];
const f: WrkResult[] = [];
const m: WrkResult[] = [];
console.log('\n| round | bare req/s | minimal Elysia+SQLite req/s (ratio) | full req/s | ratio | full p50 ms | full p99 ms |');
console.log('|---|---|---|---|---|---|---|');
for (let r = 1; r <= rounds; r++) {
  b.push(bareRun(seconds));
  m.push(minimalRun(seconds));
  f.push(fullRun(seconds));
  const [x, z, y] = [b.at(-1)!, m.at(-1)!, f.at(-1)!];
  console.log(`| ${r} | ${fmt(x.rps, 0)} | ${fmt(z.rps, 0)} (${fmt(z.rps / x.rps)}) | ${fmt(y.rps, 0)} | ${fmt(y.rps / x.rps)} | ${fmt(y.p50ms)} | ${fmt(y.p99ms)} |`);
}
bare.stop();
minimal.stop();
full.stop();

const med = (rs: WrkResult[], k: keyof WrkResult) => median(rs.map((r) => r[k]));
console.log('\nmedians over the rounds:');
console.log('| server | req/s | p50 ms | p99 ms | non-2xx | socket errors |');
console.log('|---|---|---|---|---|---|');
console.log(`| bare Bun.serve, constant 300-byte JSON | ${fmt(med(b, 'rps'), 0)} | ${fmt(med(b, 'p50ms'))} | ${fmt(med(b, 'p99ms'))} | ${b.reduce((s, r) => s + r.non2xx, 0)} | ${b.reduce((s, r) => s + r.errors, 0)} |`);
console.log(`| minimal Elysia + bun:sqlite lookup (reference: no auth, quota, headers, log) | ${fmt(med(m, 'rps'), 0)} | ${fmt(med(m, 'p50ms'))} | ${fmt(med(m, 'p99ms'))} | ${m.reduce((s, r) => s + r.non2xx, 0)} | ${m.reduce((s, r) => s + r.errors, 0)} |`);
console.log(`| facility-score lookup (auth + quota + envelope) | ${fmt(med(f, 'rps'), 0)} | ${fmt(med(f, 'p50ms'))} | ${fmt(med(f, 'p99ms'))} | ${f.reduce((s, r) => s + r.non2xx, 0)} | ${f.reduce((s, r) => s + r.errors, 0)} |`);
console.log(`\nratio full/bare: ${fmt(med(f, 'rps') / med(b, 'rps'))} (target >= 0.5); full p99 ${fmt(med(f, 'p99ms'))} ms (target <= 5 ms)`);
console.log(`reference minimal/bare: ${fmt(med(m, 'rps') / med(b, 'rps'))}; full/minimal: ${fmt(med(f, 'rps') / med(m, 'rps'))}`);
