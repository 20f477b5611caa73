#!/usr/bin/env bun
/**
 * What the search table costs at ingest, measured in one run (the machine may be shared, so only
 * same-run ratios mean anything):
 *   npx bun scripts/bench-search-ingest.ts --base DIR [--file FILE] [--out DIR] [--rounds N]
 * DIR is a checkout of the code before the search table (e.g. `git archive 07dc7cb | tar -x -C DIR`
 * and a `node_modules` link). Rounds alternate base and this tree (base, ours, base, ours, ...) and
 * print each wall time, the index file sizes and the ratios of the medians.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

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
  const proc = Bun.spawn([process.execPath, 'run', join(tree, 'src/main.ts'), 'ingest', values.file!, '--out', out, '--threads', values.threads!], { cwd: tree, stdout: 'ignore', stderr: 'ignore' });
  if ((await proc.exited) !== 0) throw new Error(`ingest in ${tree} failed`);
  const usage = proc.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
  return { wall: (performance.now() - t0) / 1000, cpu };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const times = { base: [] as number[], ours: [] as number[] };
const cpus = { base: [] as number[], ours: [] as number[] };
const outs = { base: join(values.out!, 'national-nosearch.sqlite'), ours: join(values.out!, 'national-search.sqlite') };
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const side of ['base', 'ours'] as const) {
    const s = await ingest(side === 'base' ? resolve(values.base) : ROOT, outs[side]);
    times[side].push(s.wall);
    cpus[side].push(s.cpu);
    console.log(`round ${round} ${side}: ${s.wall.toFixed(1)} s wall, ${s.cpu.toFixed(1)} s CPU`);
  }
}
const size = (p: string) => statSync(p).size / 1024 / 1024;
const [tb, to, sb, so] = [median(times.base), median(times.ours), size(outs.base), size(outs.ours)];
console.log(`ingest wall time (median): without search ${tb.toFixed(1)} s, with ${to.toFixed(1)} s: ${((to / tb - 1) * 100).toFixed(1)}% more`);
const [cb, co] = [median(cpus.base), median(cpus.ours)];
console.log(`ingest CPU time (median): without search ${cb.toFixed(1)} s, with ${co.toFixed(1)} s: ${((co / cb - 1) * 100).toFixed(1)}% more`);
console.log(`index file: without search ${sb.toFixed(0)} MiB, with ${so.toFixed(0)} MiB: ${((so / sb - 1) * 100).toFixed(1)}% more`);
