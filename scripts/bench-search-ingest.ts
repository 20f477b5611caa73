#!/usr/bin/env bun
/**
 * What the search table costs at ingest, measured in one run (the machine may be shared, so only
 * same-run ratios mean anything):
 *   npx bun scripts/bench-search-ingest.ts --base DIR [--file FILE] [--out DIR] [--rounds N] [--threads 1|2]
 * DIR is a checkout of the code before the search table (e.g. `git archive 07dc7cb | tar -x -C DIR`
 * and a `node_modules` link). Rounds alternate base and this tree (base, ours, base, ours, ...) and
 * print each wall time, the index file sizes and the ratios of the medians.
 *
 * This tree's ingest also does what was added since DIR besides search, so the whole-ingest ratio
 * overstates what search costs. The search part alone: after each base ingest, this tree's
 * `fillSearchTables` is run on the base's finished index (the same facility table, the writer's
 * settings, ANALYZE of the new tables), timed, and set against that base ingest's time and file.
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fillSearchTables, SEARCH_DDL } from '../src/index/search-tables/table';

const ROOT = join(import.meta.dir, '..');
const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { base: { type: 'string' }, file: { type: 'string', default: 'var/bench/national.csv.gz' }, out: { type: 'string', default: 'var/bench/search-ingest' }, rounds: { type: 'string', default: '1' }, threads: { type: 'string', default: '1' } },
});
if (!values.base) {
  console.error('bench-search-ingest: --base DIR (a checkout without the search table) is required');
  process.exit(2);
}

/** Wall and CPU (user + system) seconds of one ingest; on a shared machine the CPU time is the steadier figure. */
async function ingest(tree: string, out: string): Promise<{ wall: number; cpu: number }> {
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, 'run', join(tree, 'src/main.ts'), 'ingest', resolve(values.file!), '--out', resolve(out), '--threads', values.threads!], { cwd: tree, stdout: 'ignore', stderr: 'pipe' });
  if ((await proc.exited) !== 0) throw new Error(`ingest in ${tree} failed: ${(await new Response(proc.stderr).text()).slice(-2000)}`);
  const usage = proc.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
  return { wall: (performance.now() - t0) / 1000, cpu };
}

/** This tree's search tables added to a finished search-less index, as IndexWriter.finish does: wall and CPU seconds. */
function fillOnto(path: string): { wall: number; cpu: number } {
  const db = new Database(path, { strict: true });
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  db.exec(SEARCH_DDL);
  db.exec('BEGIN');
  fillSearchTables(db);
  db.exec('COMMIT');
  db.exec('ANALYZE search_doc; ANALYZE facility_search_data; ANALYZE facility_search_idx;');
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu0);
  db.close();
  return { wall, cpu: (used.user + used.system) / 1e6 };
}

/** The middle value; the mean of the two middle ones for an even count (two rounds: their mean). */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const size = (p: string) => statSync(p).size;
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const pct = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`;
const times = { base: [] as number[], ours: [] as number[] };
const cpus = { base: [] as number[], ours: [] as number[] };
const fills = { wall: [] as number[], cpu: [] as number[], growth: [] as number[] };
mkdirSync(values.out!, { recursive: true });
const outs = { base: join(values.out!, 'national-nosearch.sqlite'), ours: join(values.out!, 'national-search.sqlite') };
let sizes = { base: 0, ours: 0, filled: 0 };
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const side of ['base', 'ours'] as const) {
    const s = await ingest(side === 'base' ? resolve(values.base) : ROOT, outs[side]);
    times[side].push(s.wall);
    cpus[side].push(s.cpu);
    sizes[side] = size(outs[side]);
    console.log(`round ${round} ${side}: ${s.wall.toFixed(1)} s wall, ${s.cpu.toFixed(1)} s CPU, ${mib(sizes[side])}`);
    if (side === 'base') {
      const f = fillOnto(outs.base);
      sizes.filled = size(outs.base);
      fills.wall.push(f.wall / s.wall);
      fills.cpu.push(f.cpu / s.cpu);
      fills.growth.push(sizes.filled / sizes.base);
      console.log(`round ${round} search tables filled onto the base's index: ${f.wall.toFixed(1)} s wall (${((f.wall / s.wall) * 100).toFixed(1)}% of its ingest), ${f.cpu.toFixed(1)} s CPU (${((f.cpu / s.cpu) * 100).toFixed(1)}%), file ${mib(sizes.base)} -> ${mib(sizes.filled)}`);
    }
  }
}
const [tb, to, cb, co] = [median(times.base), median(times.ours), median(cpus.base), median(cpus.ours)];
console.log(`whole ingest, this tree against the base (search and everything else added since): wall ${tb.toFixed(1)} s -> ${to.toFixed(1)} s (${pct(to, tb)}), CPU ${cb.toFixed(1)} s -> ${co.toFixed(1)} s (${pct(co, cb)}), file ${mib(sizes.base)} -> ${mib(sizes.ours)} (${pct(sizes.ours, sizes.base)})`);
console.log(`search alone (median of rounds): ingest wall +${((median(fills.wall)) * 100).toFixed(1)}%, CPU +${(median(fills.cpu) * 100).toFixed(1)}%, index file +${((median(fills.growth) - 1) * 100).toFixed(1)}% (targets: time <= 20%, file <= 30%)`);
