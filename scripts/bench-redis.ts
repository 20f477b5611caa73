#!/usr/bin/env bun
/**
 * Lookup throughput with the Redis state store vs the embedded (SQLite) store, same run, same index,
 * wrk on loopback; prints req/s, p50/p99 and what Redis adds (docs/replicas.md).
 *   npx bun run scripts/bench-redis.ts [--index data/sample.sqlite] [--seconds 10] [--connections 64] [--rounds 2]
 * Each store is measured `rounds` times, alternating, and the median round is reported, so a burst
 * of load from elsewhere on the machine does not land on one store only. Throughput is taken at
 * `connections` (saturated: latency there is mostly queueing); the added latency per request is
 * also taken unsaturated, with one connection. A real redis-server is started on a free loopback
 * port (no persistence) and stopped at the end.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RedisServer } from '../test/support/redis-server';
import { benchKey, fmt, lookupLua, randomIds, requireWrk, runWrk, startChild, type WrkResult } from './bench/wrk';

const { values } = parseArgs({ options: { index: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, rounds: { type: 'string' } } });
const root = join(import.meta.dir, '..');
const indexPath = values.index ?? join(root, 'data', 'sample.sqlite');
const seconds = Number(values.seconds ?? 10);
const connections = Number(values.connections ?? 64);
const rounds = Number(values.rounds ?? 2);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build the bundled sample with \`npx bun run scripts/sample.ts ensure\`, or pass --index`);
  process.exit(2);
}
requireWrk();
const bun = process.execPath;
const main = join(root, 'src/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-redis-'));
const redis = await RedisServer.start();

const { ids, facilities } = randomIds(indexPath);

const luaFor = (name: string, key: string) => lookupLua(join(dir, `${name}.lua`), ids, key);

const variants = [
  { name: 'embedded (SQLite)', state: ['--state-dir', join(dir, 'sqlite')] },
  { name: 'Redis', state: ['--redis-url', redis.url, '--state-dir', join(dir, 'unused')] },
];
const servers = [];
try {
  for (const v of variants) {
    const lua = luaFor(v.name.split(' ')[0]!, benchKey(v.state));
    const child = await startChild([bun, main, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, ...v.state], /"port":(\d+)/, { FCS_LOG_REQUESTS: '0' });
    const url = `http://127.0.0.1:${child.output.match(/"port":(\d+)/)![1]}/`;
    runWrk(url, { connections, seconds: 2, luaPath: lua }); // warm-up: page cache, JIT, script cache
    servers.push({ ...v, child, url, lua, runs: [] as WrkResult[], single: [] as WrkResult[] });
  }

  console.log(`index: ${indexPath} (${facilities.toLocaleString()} facilities); wrk -t1 -c${connections} -d${seconds}s x ${rounds} rounds each, alternating; ${new Date().toISOString()}`);
  for (let r = 0; r < rounds; r++) {
    for (const s of servers) s.runs.push(runWrk(s.url, { connections, seconds, luaPath: s.lua }));
    for (const s of servers) s.single.push(runWrk(s.url, { connections: 1, seconds: Math.max(2, Math.round(seconds / 2)), luaPath: s.lua }));
  }

  const median = (runs: WrkResult[]) => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor((runs.length - 1) / 2)]!;
  const [embedded, shared] = servers.map((s) => ({ name: s.name, m: median(s.runs), runs: s.runs, one: median(s.single) }));
  console.log('');
  console.log('| state store | req/s (median round) | p50 ms | p99 ms | non-2xx | socket errors | all rounds req/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const s of [embedded!, shared!]) {
    console.log(`| ${s.name} | ${fmt(s.m.rps, 0)} | ${fmt(s.m.p50ms)} | ${fmt(s.m.p99ms)} | ${s.m.non2xx} | ${s.m.errors} | ${s.runs.map((x) => fmt(x.rps, 0)).join(', ')} |`);
  }
  console.log('');
  console.log('| state store, 1 connection | req/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const s of [embedded!, shared!]) console.log(`| ${s.name} | ${fmt(s.one.rps, 0)} | ${fmt(s.one.p50ms, 3)} | ${fmt(s.one.p99ms, 3)} |`);
  console.log(
    `\nRedis vs embedded: throughput x${fmt(shared!.m.rps / embedded!.m.rps)} at ${connections} connections ` +
      `(added p50 ${fmt(shared!.m.p50ms - embedded!.m.p50ms)} ms, p99 ${fmt(shared!.m.p99ms - embedded!.m.p99ms)} ms, mostly queueing); ` +
      `added latency unsaturated (1 connection): p50 ${fmt(shared!.one.p50ms - embedded!.one.p50ms, 3)} ms, p99 ${fmt(shared!.one.p99ms - embedded!.one.p99ms, 3)} ms`,
  );
} finally {
  for (const s of servers) s.child.stop();
  await redis.dispose();
  rmSync(dir, { recursive: true, force: true });
}
