#!/usr/bin/env bun
/**
 * Lookup throughput of the full stack (auth + quota + envelope) against a bare Bun.serve in the
 * same run, with wrk on loopback, 64 connections, random IDs over a national-scale index.
 *   bun run scripts/bench-lookup.ts [--index /work/bench-data/national.sqlite] [--seconds 10]
 * Prints req/s, p50/p99 and the ratio full/bare. Target: ratio >= 0.5, p99 <= 5 ms.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchKey, fmt, lookupLua, randomIds, requireWrk, runWrk, startChild } from './bench/wrk';

const { values } = parseArgs({ options: { index: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } } });
const indexPath = values.index ?? '/work/bench-data/national.sqlite';
const seconds = Number(values.seconds ?? 10);
const connections = Number(values.connections ?? 64);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build one with scripts/generate-sample.ts + ingest (docs/ingest.md), or pass --index`);
  process.exit(2);
}
requireWrk();
const root = join(import.meta.dir, '..');
const bun = process.execPath;
const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-lookup-'));

// 20,000 random IDs drawn from the index, fed to wrk so every request hits a different row.
const { ids, facilities } = randomIds(indexPath);
const lua = lookupLua(join(dir, 'lookup.lua'), ids, benchKey(['--state-dir', dir]));

console.log(`index: ${indexPath} (${facilities.toLocaleString()} facilities); wrk -t1 -c${connections} -d${seconds}s; ${new Date().toISOString()}`);

const bare = await startChild([bun, join(import.meta.dir, 'bench/bare-server.ts')], /"port":(\d+)/);
const barePort = bare.output.match(/"port":(\d+)/)![1];
runWrk(`http://127.0.0.1:${barePort}/`, { connections, seconds: 2 }); // warm-up
const b = runWrk(`http://127.0.0.1:${barePort}/`, { connections, seconds });
bare.stop();

const full = await startChild(
  [bun, join(root, 'src/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', dir],
  /"port":(\d+)/,
  { FCS_LOG_REQUESTS: '0' },
);
const port = full.output.match(/"port":(\d+)/)![1];
runWrk(`http://127.0.0.1:${port}/`, { connections, seconds: 2, luaPath: lua }); // warm-up: page cache, JIT
const f = runWrk(`http://127.0.0.1:${port}/`, { connections, seconds, luaPath: lua });
full.stop();

console.log('');
console.log('| server | req/s | p50 ms | p99 ms | non-2xx | socket errors |');
console.log('|---|---|---|---|---|---|');
console.log(`| bare Bun.serve, constant 300-byte JSON | ${fmt(b.rps, 0)} | ${fmt(b.p50ms)} | ${fmt(b.p99ms)} | ${b.non2xx} | ${b.errors} |`);
console.log(`| facility-score lookup (auth + quota + envelope) | ${fmt(f.rps, 0)} | ${fmt(f.p50ms)} | ${fmt(f.p99ms)} | ${f.non2xx} | ${f.errors} |`);
console.log(`\nratio full/bare: ${fmt(f.rps / b.rps)} (target >= 0.5); full p99 ${fmt(f.p99ms)} ms (target <= 5 ms)`);
