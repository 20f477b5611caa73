#!/usr/bin/env bun
/**
 * Where a lookup's CPU goes: a `serve` child of this checkout runs under Bun's sampling profiler
 * (--cpu-prof, 100 µs) pinned to one core while wrk (the other core) sends the lookups of
 * bench-lookup (random IDs, Enterprise key, 64 connections), then stops (SIGTERM: the profile is
 * written). Prints each stage's share of the server's busy time (inclusive: a stage holds what it
 * calls), by the functions that make it up, and the top functions by self time.
 *   npx bun run scripts/bench-lookup-profile.ts [--index var/bench/national.sqlite] [--seconds 10] [--tier enterprise]
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchCpus, benchKey, fmt, lookupLua, randomIds, requireWrk, runWrk, startChild } from './bench/wrk';

const { values } = parseArgs({ options: { index: { type: 'string' }, seconds: { type: 'string' }, tier: { type: 'string' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const seconds = Number(values.seconds ?? 10);
if (!existsSync(indexPath)) {
  console.error(`no index at ${indexPath}: build the national one (docs/ingest.md), or pass --index`);
  process.exit(2);
}
requireWrk();
const cpus = benchCpus();
const root = join(import.meta.dir, '..');
const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-profile-'));
const { ids } = randomIds(indexPath, 200_000);
const lua = lookupLua(join(dir, 'lookup.lua'), ids, benchKey(['--state-dir', dir], undefined, values.tier ?? 'enterprise'));

// the allocator setting serve would re-execute itself with, given up front so the profiled process is the serving one
const server = await startChild(
  [process.execPath, '--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${dir}`, join(root, 'src/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1', '--index', indexPath, '--state-dir', dir],
  /"port":(\d+)/,
  { FCS_LOG_REQUESTS: '0', MIMALLOC_PURGE_DELAY: '-1' },
  cpus?.server,
);
const url = `http://127.0.0.1:${server.output.match(/"port":(\d+)/)![1]}/`;
runWrk(url, { connections: 64, seconds: 3, luaPath: lua, cpu: cpus?.client }); // warm-up: JIT, index pages
const run = runWrk(url, { connections: 64, seconds, luaPath: lua, cpu: cpus?.client });
process.kill(server.pid, 'SIGTERM');
let file: string | undefined;
for (let i = 0; i < 100 && !file; i++) {
  await Bun.sleep(100);
  file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
}
if (!file) throw new Error('no profile written');
await Bun.sleep(500);

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)));

const where = (n: Node) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules\/|src\/)/, '$1')}:${n.callFrame.lineNumber + 1}`;
const idle = (n: Node) => ['(idle)', '(program)'].includes(n.callFrame.functionName);

/** Stages: the first whose test matches a frame on the stack (innermost first) takes the sample. */
const STAGES: [string, (n: Node) => boolean][] = [
  ['garbage collection', (n) => n.callFrame.functionName === '(garbage collector)'],
  ['API key: authenticate + tier', (n) => /src\/access\/(authenticate|authorize|key-format)/.test(n.callFrame.url)],
  ['monthly count + quota headers (ledger)', (n) => /src\/(access\/quota|state\/)/.test(n.callFrame.url)],
  ['index read: row, score change, extras', (n) => /src\/index\//.test(n.callFrame.url)],
  ['shaping for the tier (toFacilityRecord)', (n) => /src\/facilities\//.test(n.callFrame.url)],
  ['ETag + 304 check', (n) => /src\/api\/http\/conditional/.test(n.callFrame.url)],
  ['envelope: meta, Response.json', (n) => /src\/api\/http\/(json-response|request-context)/.test(n.callFrame.url) && /metaFor|jsonResponse|isoTimestamp/.test(n.callFrame.functionName)],
  ['request id + facts', (n) => /src\/api\/http\/request-context/.test(n.callFrame.url)],
  ['access log + metrics', (n) => /src\/(api\/http\/access-log|ops\/)/.test(n.callFrame.url)],
  ['CORS', (n) => /src\/api\/http\/cors/.test(n.callFrame.url)],
  ['Elysia: routing, hooks, context, response mapping', (n) => /node_modules\/elysia\//.test(n.callFrame.url)],
];
const stageOf = (id: number): string => {
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    for (const [name, test] of STAGES) if (test(n)) return name;
  }
  return 'Bun: HTTP parse/write, event loop, native';
};

let busy = 0;
const stages = new Map<string, number>();
const selfBy = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  if (idle(n)) continue;
  busy += us;
  const s = stageOf(id);
  stages.set(s, (stages.get(s) ?? 0) + us);
  selfBy.set(where(n), (selfBy.get(where(n)) ?? 0) + us);
}
const requests = run.rps * seconds;
console.log(`index ${indexPath}; ${values.tier ?? 'enterprise'} key; wrk -c64 ${seconds}s: ${fmt(run.rps, 0)} req/s under the profiler; server busy ${fmt(busy / 1e6, 2)} s = ${fmt(busy / requests, 2)} µs a lookup; ${new Date().toISOString()}`);
console.log('\n| stage | share of busy time | µs a lookup |\n|---|---|---|');
for (const [s, us] of [...stages].sort((a, b) => b[1] - a[1])) console.log(`| ${s} | ${fmt((100 * us) / busy, 1)}% | ${fmt(us / requests, 2)} |`);
console.log('\ntop functions by self time:\n| function | share |\n|---|---|');
for (const [f, us] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`| ${f} | ${fmt((100 * us) / busy, 1)}% |`);
if (process.env.PROFILE_STACKS) {
  const top = [...self].filter(([id]) => !idle(byId.get(id)!)).sort((a, b) => b[1] - a[1]).slice(0, 12);
  for (const [id, us] of top) {
    const chain: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined && chain.length < 8; cur = parent.get(cur)) chain.push(where(byId.get(cur)!));
    console.log(`${fmt((100 * us) / busy, 1)}%: ${chain.join(' <- ')}`);
  }
}
server.stop();
rmSync(dir, { recursive: true, force: true });
