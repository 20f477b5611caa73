#!/usr/bin/env bun
/**
 * A/B cost of the lookup path (or the site report's) between two checkouts (or one checkout with two FCS_* settings).
 *   npx bun run scripts/bench-ab.ts <dirA> <dirB> [--index PATH] [--index-b PATH] [--seconds 5] [--rounds 5] [--env-a K=V] [--env-b K=V] [--tier free|starter|platform|enterprise] [--route lookup|area|site-report] [--seed N] [--parcel N]
 * (--index-b: B's own index file, for a change of index format; the IDs are drawn from A's. --tier: the
 * key's plan, default enterprise, the Starter+ path; free takes the redacted path. --route site-report:
 * the JSON site report of 60 sites of the densest metro drawn by --seed, as bench-site-report draws
 * them, each asked in turn, 4 connections: a report is ~400 KB of work, not a lookup's ~1 KB; --parcel N:
 * each site with the N-vertex lot outline bench-site-report sends.)
 * Both servers run pinned to CPU 0 and two wrk processes load them at once from CPU 1. The kernel
 * shares CPU 0 fairly, so req/s B / req/s A is the inverse ratio of their per-request CPU cost, and a
 * slow spell of the machine hits both alike: repeated A/A runs agree within about 1%, where two
 * separate bench-lookup runs differ by 20%. Use it to tell whether a change to the hot path helps.
 * Needs wrk and taskset (util-linux) and two CPUs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { densestSquare, drawSites, parcelAround } from './bench/metro-sites';
import { areaLua, benchCpus, benchKey, fmt, lookupLua, median, randomIds, requireWrk, siteReportLua, startChild } from './bench/wrk';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { index: { type: 'string' }, 'index-b': { type: 'string' }, seconds: { type: 'string' }, rounds: { type: 'string' }, 'env-a': { type: 'string', multiple: true }, 'env-b': { type: 'string', multiple: true }, tier: { type: 'string' }, route: { type: 'string', default: 'lookup' }, seed: { type: 'string', default: '1' }, parcel: { type: 'string' } },
});
if (positionals.length !== 2) {
  console.error('usage: npx bun run scripts/bench-ab.ts <dirA> <dirB> [--index PATH] [--seconds 5] [--rounds 5] [--env-a K=V] [--env-b K=V]');
  process.exit(2);
}
requireWrk();
const cpus = benchCpus();
if (!cpus) {
  console.error('bench-ab needs taskset and two CPUs');
  process.exit(2);
}
const indexPath = values.index ?? 'var/bench/national.sqlite';
const seconds = Number(values.seconds ?? 5);
const rounds = Number(values.rounds ?? 5);
const envOf = (kvs: string[] = []) => Object.fromEntries(kvs.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
if (values.route !== 'lookup' && values.route !== 'site-report' && values.route !== 'area') {
  console.error('--route is lookup, area or site-report');
  process.exit(2);
}
const siteReport = values.route === 'site-report';
const area = values.route === 'area';
const { ids } = randomIds(indexPath, siteReport || area ? 1 : 200_000);
const sites = siteReport || area ? metroSites(indexPath, Number.parseInt(values.seed!, 10) || 0) : [];
const connections = siteReport ? 4 : area ? 16 : 64;

function metroSites(path: string, seed: number) {
  const db = new Database(path, { readonly: true });
  const sites = drawSites(db, densestSquare(db), seed, 60);
  db.close();
  const vertices = values.parcel === undefined ? 0 : Math.max(3, Number.parseInt(values.parcel, 10) || 0);
  return sites.map((s) => (vertices > 0 ? { lat: s.lat, lng: s.lng, boundary: parcelAround(s, vertices) } : { lat: s.lat, lng: s.lng }));
}

/** A checkout's server with its own state dir and an Enterprise key without a practical cap. */
async function serverOf(checkout: string, env: Record<string, string>, index = indexPath) {
  const main = join(resolve(checkout), 'src/main.ts');
  const state = mkdtempSync(join(tmpdir(), 'fcs-bench-ab-'));
  const key = benchKey(['--state-dir', state], main, values.tier ?? 'enterprise');
  const child = await startChild(
    [process.execPath, main, 'serve', '--port', '0', '--host', '127.0.0.1', '--index', index, '--state-dir', state],
    /"port":(\d+)/,
    { FCS_LOG_REQUESTS: '0', ...env },
    cpus!.server,
  );
  const lua = siteReport ? siteReportLua(join(state, 'site-report.lua'), sites, key) : area ? areaLua(join(state, 'area.lua'), sites, key) : lookupLua(join(state, 'lookup.lua'), ids, key);
  return { child, lua, url: `http://127.0.0.1:${child.output.match(/"port":(\d+)/)![1]}/` };
}

/** wrk as a child process (not spawnSync), so the two loads run at the same time. */
function load(s: { lua: string; url: string }, sec: number): Promise<{ rps: number; p99: string }> {
  return new Promise((done) => {
    const p = spawn('taskset', ['-c', String(cpus!.client), 'wrk', '-t1', `-c${connections}`, `-d${sec}s`, '--latency', '-s', s.lua, s.url]);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', () => done({ rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]), p99: out.match(/^\s*99%\s+(\S+)/m)?.[1] ?? '?' }));
  });
}

const a = await serverOf(positionals[0]!, envOf(values['env-a']));
// a B that fails to start must not leave A serving (and holding this run's output pipe)
const b = await serverOf(positionals[1]!, envOf(values['env-b']), values['index-b'] ?? indexPath).catch((e) => {
  a.child.stop();
  throw e;
});
await Promise.all([load(a, 3), load(b, 3)]); // warm-up
const envText = (kvs?: string[]) => (kvs ? ` (${kvs.join(' ')})` : '');
console.log(`A ${positionals[0]}${envText(values['env-a'])}  B ${positionals[1]}${envText(values['env-b'])}; ${values.route}${siteReport || area ? ` (seed ${values.seed}${values.parcel ? `, ${values.parcel}-vertex parcels` : ''})` : ''}; ${values.tier ?? 'enterprise'} key; ${rounds} x ${seconds}s`);
const ratios: number[] = [];
for (let r = 1; r <= rounds; r++) {
  const [x, y] = await Promise.all([load(a, seconds), load(b, seconds)]);
  ratios.push(y.rps / x.rps);
  console.log(`round ${r}: A ${fmt(x.rps, 0)} req/s (p99 ${x.p99})  B ${fmt(y.rps, 0)} req/s (p99 ${y.p99})  B/A ${fmt(y.rps / x.rps, 3)}`);
}
a.child.stop();
b.child.stop();
console.log(`median B/A ${fmt(median(ratios), 3)} (> 1: B costs less per request)`);
