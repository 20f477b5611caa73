#!/usr/bin/env bun
/**
 * Figures of the compiled binary, printed, never asserted:
 *   npx bun run scripts/bench-binary.ts [--binary dist/facility-score]
 *     [--index var/bench/national.sqlite] [--runs 10] [--lookups 10000] [--drop-caches]
 * - binary size;
 * - cold start to the first 200 of a facility lookup (median of --runs process starts), with the
 *   embedded sample and with the external national index;
 * - RSS right after that first 200, and after --lookups random lookups (16 concurrent);
 * - a SIGHUP rotation to another copy of the national index under load: hand-over time, slowest
 *   request meanwhile, failures, RSS before/after.
 * - start to the first 200 of an area search (the area index loaded from the release's `.area` file,
 *   or built on a worker while the area search answers 503 for an index without one).
 * The national index is copied to a temp dir first (twice, for the rotation) with its `.area` file
 * when it has one (a release as ingest writes it; --no-area-file: without, like an index built
 * before releases carried it, whose first start builds and saves it). The copies are deleted at the end.
 * "Cold" is a new process; the OS page cache stays warm unless --drop-caches (root, writes
 * /proc/sys/vm/drop_caches before every start).
 */
import { Database } from 'bun:sqlite';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomIds } from './bench/wrk';
import { buildBinary } from './build';

const ROOT = join(import.meta.dir, '..');
const { values } = parseArgs({
  options: {
    binary: { type: 'string' },
    index: { type: 'string' },
    runs: { type: 'string' },
    lookups: { type: 'string' },
    'drop-caches': { type: 'boolean' },
    'no-area-file': { type: 'boolean' },
  },
});
const runs = Number(values.runs ?? 10);
const lookups = Number(values.lookups ?? 10_000);
const nationalPath = values.index ?? 'var/bench/national.sqlite';
let binaryPath = values.binary ?? join(ROOT, 'dist', 'facility-score');
if (!existsSync(binaryPath)) {
  console.error(`no binary at ${binaryPath}: building it (npm run build)`);
  binaryPath = buildBinary().outfile;
}

/** Servers this script started: killed if it is interrupted, so none outlives the bench. */
const children = new Set<ReturnType<typeof Bun.spawn>>();
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    for (const c of children) c.kill('SIGKILL');
    process.exit(130);
  });
}

function spawnServe(args: string[], stdout: 'ignore' | 'pipe') {
  const proc = Bun.spawn(args, { env: { PATH: process.env.PATH, FCS_LOG_REQUESTS: '0' }, stdout, stderr: 'pipe' });
  children.add(proc);
  void proc.exited.then(() => children.delete(proc));
  return proc;
}

function cli(args: string[], stateDir: string): string {
  const p = Bun.spawnSync([binaryPath, ...args, '--state-dir', stateDir], { env: { PATH: process.env.PATH } });
  if (p.exitCode !== 0) throw new Error(`${args.join(' ')}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

function freePort(): number {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

type Rss = { total: number; anon: number; file: number };

/** Resident memory in MiB: total, anonymous (heap, private data) and file-backed (mapped index pages, the binary). */
function rss(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}

const fmtRss = (r: Rss) => `${r.total.toFixed(0)} MiB (anon ${r.anon.toFixed(0)}, file ${r.file.toFixed(0)})`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Starts serve, polls a lookup until it is 200, then an area search until it is 200; returns the process and both elapsed ms. */
async function startToFirst200(index: string | null, stateDir: string, key: string, id: string, at: { lat: number; lng: number }) {
  if (values['drop-caches']) writeFileSync('/proc/sys/vm/drop_caches', '3\n');
  const port = freePort();
  const args = [binaryPath, 'serve', '--port', String(port), '--host', '127.0.0.1', '--state-dir', stateDir, ...(index ? ['--index', index] : [])];
  const started = performance.now();
  const proc = spawnServe(args, 'ignore');
  const url = `http://127.0.0.1:${port}/api/v1/facility/${id}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`serve exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
    try {
      const res = await fetch(url, { headers: { 'x-api-key': key } });
      if (res.status === 200) {
        await res.arrayBuffer();
        break;
      }
      throw new Error(`lookup answered ${res.status}`);
    } catch (e) {
      if (!/ECONNREFUSED|Unable to connect/i.test((e as Error).message)) throw e;
      await Bun.sleep(2);
    }
  }
  const ms = performance.now() - started;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/area?lat=${at.lat}&lng=${at.lng}&radius_miles=5`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    if (res.status === 200) break;
    if (res.status !== 503) throw new Error(`area answered ${res.status}`);
    await Bun.sleep(5);
  }
  return { proc, ms, areaMs: performance.now() - started };
}

/** Where the facility `id` is (an area search there finds it). */
function placeOf(indexPath: string, id: string): { lat: number; lng: number } {
  const db = new Database(indexPath, { readonly: true });
  const r = db.query('SELECT lat, lng FROM facility WHERE registry_id = ?').get(id) as { lat: number; lng: number };
  db.close();
  return r;
}

async function measure(label: string, index: string | null, idsFrom: string) {
  const stateDir = mkdtempSync(join(tmpdir(), 'fcs-bench-bin-'));
  const { key, account_id } = JSON.parse(cli(['keys', 'create', '--tier', 'enterprise', '--json'], stateDir));
  cli(['keys', 'set-limit', account_id, '1000000000'], stateDir);
  const { ids } = randomIds(idsFrom, lookups);
  const starts: number[] = [], areaStarts: number[] = [];
  const at = placeOf(idsFrom, ids[0]!);
  for (let i = 0; i < runs; i++) {
    const { proc, ms, areaMs } = await startToFirst200(index, stateDir, key, ids[i % ids.length]!, at);
    starts.push(ms);
    areaStarts.push(areaMs);
    proc.kill('SIGKILL');
    await proc.exited;
  }
  const { proc } = await startToFirst200(index, stateDir, key, ids[0]!, at);
  await Bun.sleep(500);
  const rssStart = rss(proc.pid);
  const base = baseOf(proc.pid);
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const res = await fetch(`${base}/api/v1/facility/${id}`, { headers: { 'x-api-key': key } });
        if (res.status !== 200) failed++;
        await res.arrayBuffer();
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  await Bun.sleep(500);
  const rssAfter = rss(proc.pid);
  proc.kill('SIGTERM');
  await proc.exited;
  return { label, starts, areaStarts, rssStart, rssAfter, rate: ids.length / secs, failed };
}

/** Base URL of a serve process, from the --port on its command line. */
function baseOf(pid: number): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return `http://127.0.0.1:${args[args.indexOf('--port') + 1]}`;
}

/**
 * SIGHUP reload of `index` while 4 clients loop on /api/v1/status: how long the hand-over took (the
 * service's own `took_ms`), the slowest request meanwhile (the new index is prepared on a worker
 * thread, so the old one keeps answering; a slow request here means the machine, or the hand-over)
 * and how many failed.
 */
async function reloadStall(from: string, to: string) {
  const port = freePort();
  const link = join(mkdtempSync(join(tmpdir(), 'fcs-bench-hup-')), 'current.sqlite');
  symlinkSync(from, link);
  const proc = spawnServe([binaryPath, 'serve', '--port', String(port), '--host', '127.0.0.1', '--state-dir', join(link, '..'), '--index', link], 'pipe');
  const out: string[] = [];
  void (async () => {
    for await (const c of proc.stdout as ReadableStream<Uint8Array>) out.push(new TextDecoder().decode(c));
  })();
  const base = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) await Bun.sleep(20);
  let stop = false;
  let slowest = 0;
  let failed = 0;
  let count = 0;
  const workers = Array.from({ length: 4 }, async () => {
    while (!stop) {
      const t = performance.now();
      const ok = await fetch(`${base}/api/v1/status`).then((r) => r.arrayBuffer().then(() => r.ok), () => false);
      slowest = Math.max(slowest, performance.now() - t);
      count++;
      if (!ok) failed++;
    }
  });
  await Bun.sleep(500);
  slowest = 0;
  const rssBefore = rss(proc.pid);
  symlinkSync(to, `${link}.new`);
  renameSync(`${link}.new`, link);
  proc.kill('SIGHUP');
  let line: { took_ms?: number; prepared_off_thread?: boolean; area_index?: string } | undefined;
  while (!(line = out.join('').split('\n').map((l) => (l.includes('"index reloaded"') ? JSON.parse(l) : null)).find(Boolean))) await Bun.sleep(20);
  await Bun.sleep(500);
  stop = true;
  await Promise.all(workers);
  const rssAfter = rss(proc.pid);
  proc.kill('SIGTERM');
  await proc.exited;
  // Older builds said prepared_off_thread; this one says where the area index came from (file, worker, main thread).
  const area = line.area_index ?? (line.prepared_off_thread ? 'built on a worker thread' : 'built inline');
  return { tookMs: line.took_ms ?? NaN, area, slowest, failed, count, rssBefore, rssAfter };
}

const sample = join(ROOT, 'data', 'sample.sqlite');
console.log(`binary ${binaryPath}: ${(statSync(binaryPath).size / 1e6).toFixed(1)} MB (embedded sample index ${(statSync(sample).size / 1e6).toFixed(1)} MB)`);
console.log(`cores ${navigator.hardwareConcurrency}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}, page cache ${values['drop-caches'] ? 'dropped before each start' : 'warm'}`);
const results = [await measure('embedded sample', null, sample)];
const copies: string[] = [];
/** A copy of the index in a fresh directory, with the release's `.area` file unless --no-area-file (no older sidecar either way) and its `.search` file if it has one. */
function freshCopy(path: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-national-'));
  copies.push(dir);
  const copy = join(dir, 'national.sqlite');
  copyFileSync(path, copy);
  if (!values['no-area-file'] && existsSync(`${path}.area`)) copyFileSync(`${path}.area`, `${copy}.area`);
  // a national index's search tables are in its search file (docs/search.md): it goes with the index
  if (existsSync(`${path}.search`)) copyFileSync(`${path}.search`, `${copy}.search`);
  return copy;
}
if (existsSync(nationalPath)) {
  try {
    const facilities = (new Database(nationalPath, { readonly: true }).query('SELECT count(*) AS n FROM facility').get() as { n: number }).n;
    const a = freshCopy(nationalPath);
    results.push(await measure(`external national (${facilities.toLocaleString('en-US')} facilities, ${(statSync(nationalPath).size / 1e9).toFixed(2)} GB)`, a, a));
    const hup = await reloadStall(a, freshCopy(nationalPath));
    console.log(
      `SIGHUP rotation to a fresh copy of the national index, 4 clients looping: hand-over ${hup.tookMs} ms (area index: ${hup.area}), ` +
        `slowest request meanwhile ${hup.slowest.toFixed(0)} ms, ${hup.failed} of ${hup.count} requests failed, RSS ${fmtRss(hup.rssBefore)} -> ${fmtRss(hup.rssAfter)}`,
    );
  } finally {
    for (const d of copies) rmSync(d, { recursive: true, force: true });
  }
} else {
  console.log(`no national index at ${nationalPath}: make one with the synthetic generator + ingest (docs/ingest.md), or pass --index`);
}
console.log('');
console.log(`| index | first start to first 200 | cold start to first lookup 200, median of ${runs} (min-max) | to first area 200, median (min-max) | RSS after start | RSS after ${lookups.toLocaleString('en-US')} lookups | lookups/s (16 conc.) |`);
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.label} | ${r.starts[0]!.toFixed(0)} ms | ${median(r.starts).toFixed(0)} ms (${Math.min(...r.starts).toFixed(0)}-${Math.max(...r.starts).toFixed(0)}) | ${median(r.areaStarts).toFixed(0)} ms (${Math.min(...r.areaStarts).toFixed(0)}-${Math.max(...r.areaStarts).toFixed(0)}) | ${fmtRss(r.rssStart)} | ${fmtRss(r.rssAfter)} | ${r.rate.toFixed(0)}${r.failed ? ` (${r.failed} non-200!)` : ''} |`,
  );
}
