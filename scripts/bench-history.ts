#!/usr/bin/env bun
/**
 * Weekly-release figures (docs/operations.md, "Weekly releases: figures"):
 *   bun run scripts/bench-history.ts [--file var/bench/national.csv.gz] [--work DIR] [--rounds 1] [--threads 1] [--seconds 8]
 * 1. release 1: FILE ingested alone (built once, kept in --work);
 * 2. release 2: FILE evolved with 2% of facilities changed (generate-sample --evolve, kept in --work);
 * 3. ingest of release 2 alone and with --previous release 1, side by side (both at once, so a busy spell of
 *    the shared machine hits both), in child processes: wall time, CPU time (user + system: what the
 *    work costs, whatever else the machine runs) and peak RSS of each, and their ratios (target <= 1.3x,
 *    <= 1.5 GB);
 * 4. what the history adds to the index file for that week;
 * 5. GET /api/v1/facility/{id}/history over HTTP (wrk, 8 connections) against GET /api/v1/facility/{id}
 *    on the same server in the same run: p50 (target <= 2 ms).
 */
import { Database } from 'bun:sqlite';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchKey, fmt, lookupLua, median, requireWrk, runWrk, startChild } from './bench/wrk';

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'var/bench/national.csv.gz' },
    work: { type: 'string', default: 'var/bench/history' },
    rounds: { type: 'string', default: '1' },
    threads: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '8' },
  },
});
const ROOT = join(import.meta.dir, '..');
const MAIN = join(ROOT, 'src', 'main.ts');
const bun = process.execPath;
const work = values.work!;
const release1 = join(work, 'release-1.sqlite');
const nextFile = join(work, 'national-next.csv.gz');
const plain2 = join(work, 'plain-2.sqlite');
const release2 = join(work, 'release-2.sqlite');
requireWrk();

type Run = { seconds: number; cpuSeconds: number; maxRssMb: number; stdout: string };

/** Runs a command to completion: wall time, CPU time and peak RSS (the kernel's rusage). */
async function run(cmd: string[]): Promise<Run> {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  const stdout = await new Response(proc.stdout).text();
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${code}\n${stdout}`);
  const usage = proc.resourceUsage();
  const cpuSeconds = Number((usage?.cpuTime.user ?? 0n) + (usage?.cpuTime.system ?? 0n)) / 1e6;
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds, maxRssMb: Number(usage?.maxRSS ?? 0) / 1024 / 1024, stdout };
}
const ingest = (file: string, out: string, extra: string[] = []) => run([bun, MAIN, 'ingest', file, '--out', out, '--threads', values.threads!, ...extra]);
const mb = (bytes: number) => bytes / 1024 / 1024;

if (!existsSync(release1)) {
  console.error(`bench-history: building release 1 from ${values.file} ...`);
  const r = await ingest(values.file!, release1);
  console.error(`  ${r.seconds.toFixed(1)} s`);
}
if (!existsSync(nextFile)) {
  console.error('bench-history: evolving release 2 (2% of facilities changed) ...');
  await run([bun, join(ROOT, 'scripts', 'generate-sample.ts'), '--evolve', values.file!, '--seed', 'national-week-2', '--change-share', '0.02', '--gzip-level', '1', '--out', nextFile]);
}
const manifest = JSON.parse(await Bun.file(`${nextFile}.changes.json`).text()) as { changed: string[]; removed: string[]; added: string[]; rows_in: number };

const plainRuns: Run[] = [];
const previousRuns: Run[] = [];
const show = (side: string, r: Run) => console.error(`  ${side}: ${r.seconds.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} s CPU, peak RSS ${Math.round(r.maxRssMb)} MB`);
for (let round = 0; round < Number(values.rounds); round++) {
  console.error(`bench-history: round ${round + 1}: ingest alone and ingest --previous, side by side ...`);
  const [plain, previous] = await Promise.all([ingest(nextFile, plain2), ingest(nextFile, release2, ['--previous', release1])]);
  show('alone', plain!);
  show('--previous', previous!);
  plainRuns.push(plain!);
  previousRuns.push(previous!);
}

const db = new Database(release2, { readonly: true });
const count = (sql: string) => (db.query(sql).get() as { n: number }).n;
const byKind = db.query("SELECT change, count(*) AS n FROM history WHERE seq = 2 GROUP BY change").all() as { change: string; n: number }[];
const historyRows = count('SELECT count(*) AS n FROM history');
const facilities = count('SELECT count(*) AS n FROM facility');
// the IDs /history is asked for: half changed this week (two entries), half drawn from all facilities
const changedIds = (db.query('SELECT registry_id FROM history WHERE seq = 2 ORDER BY random() LIMIT 20000').all() as { registry_id: string }[]).map((r) => r.registry_id);
const anyIds = (db.query('SELECT registry_id FROM facility ORDER BY random() LIMIT 20000').all() as { registry_id: string }[]).map((r) => r.registry_id);
db.close();
const growth = statSync(release2).size - statSync(plain2).size;

console.error('bench-history: serving release 2 for /history ...');
const stateDir = join(work, 'state');
const key = benchKey(['--state-dir', stateDir]);
const server = await startChild([bun, MAIN, 'serve', '--index', release2, '--port', '0', '--state-dir', stateDir], /listening on http:\/\/[^:]+:(\d+)/, { FCS_LOG_REQUESTS: '0' });
const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(server.output)![1]);
const lua = (path: string, ids: string[], suffix: string) => lookupLua(path, ids, key, suffix);
const ids = [...changedIds, ...anyIds];
const wrkOpts = { connections: 8, seconds: Number(values.seconds) };
const url = `http://127.0.0.1:${port}`;
runWrk(url, { ...wrkOpts, seconds: 2, luaPath: lua(join(work, 'history.lua'), ids, '/history') }); // warm-up
const historyRuns = [];
const lookupRuns = [];
for (let i = 0; i < 3; i++) {
  historyRuns.push(runWrk(url, { ...wrkOpts, luaPath: lua(join(work, 'history.lua'), ids, '/history') }));
  lookupRuns.push(runWrk(url, { ...wrkOpts, luaPath: lua(join(work, 'lookup.lua'), ids, '') }));
}
server.stop();

const t = (runs: Run[]) => median(runs.map((r) => r.seconds));
const cpu = (runs: Run[]) => median(runs.map((r) => r.cpuSeconds));
const rss = (runs: Run[]) => Math.max(...runs.map((r) => r.maxRssMb));
console.log(`machine             2 cores; medians of ${values.rounds} round(s), --threads ${values.threads}`);
console.log(`release 1           ${release1} (${fmt(mb(statSync(release1).size), 0)} MB)`);
console.log(`release 2           ${manifest.rows_in.toLocaleString('en-US')} rows in; generator: ${manifest.changed.length} edited, ${manifest.removed.length} removed, ${manifest.added.length} added (${fmt((100 * (manifest.changed.length + manifest.removed.length + manifest.added.length)) / manifest.rows_in)}%)`);
console.log(`history of week 2   ${byKind.map((k) => `${k.n} ${k.change}`).join(', ')} (${fmt((100 * byKind.reduce((s, k) => s + k.n, 0)) / facilities)}% of facilities; scores also move as events age)`);
console.log(`ingest alone        ${fmt(t(plainRuns), 1)} s wall, ${fmt(cpu(plainRuns), 1)} s CPU, peak RSS ${Math.round(rss(plainRuns))} MB`);
console.log(`ingest --previous   ${fmt(t(previousRuns), 1)} s wall, ${fmt(cpu(previousRuns), 1)} s CPU, peak RSS ${Math.round(rss(previousRuns))} MB   (target <= 1536 MB)`);
console.log(`ratio               ${fmt(t(previousRuns) / t(plainRuns))}x wall, ${fmt(cpu(previousRuns) / cpu(plainRuns))}x CPU   (target <= 1.3x; both ran at once)`);
console.log(`index growth        ${fmt(mb(growth), 1)} MB for this week (${historyRows.toLocaleString('en-US')} history rows incl. first-release baselines; ${fmt(growth / Math.max(1, historyRows), 0)} bytes/row); index ${fmt(mb(statSync(release2).size), 0)} MB`);
const p = (rs: { p50ms: number; p99ms: number; rps: number }[]) => `p50 ${fmt(median(rs.map((r) => r.p50ms)))} ms, p99 ${fmt(median(rs.map((r) => r.p99ms)))} ms, ${Math.round(median(rs.map((r) => r.rps)))} req/s`;
console.log(`GET /history        ${p(historyRuns)}   (target p50 <= 2 ms; 8 connections, half the IDs changed this week)`);
console.log(`GET /facility       ${p(lookupRuns)}   (same server, same IDs, same run)`);
for (const r of [...historyRuns, ...lookupRuns]) if (r.non2xx || r.errors) console.log(`  warning: ${r.non2xx} non-2xx, ${r.errors} socket errors in a wrk run`);
