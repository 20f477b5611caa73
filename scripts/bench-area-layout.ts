#!/usr/bin/env bun
/**
 * The area layout step of ingest alone, in this process versus in a child process (
 * ingest budgets), on the columns of an existing release:
 *   npx bun run scripts/bench-area-layout.ts [--index var/bench/national.sqlite] [--runs 2]
 * Each run is a fresh process of this script that rebuilds the collected columns from the index's
 * `.area` file (registry order, as ingest's collector hands them over), then times
 * `SpatialCollector.prepareBeside` both ways, alternating. Prints per run: the step's wall time and
 * the peak RSS of the process that lays out (this one, or the child), and checks the two files are
 * byte for byte the same. Medians and the child/in-process ratio at the end.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { SpatialCollector } from '../src/index/area/spatial-collector';
import { loadSpatialFile, spatialFilePath } from '../src/index/area/spatial-file';
import { indexIdentity } from '../src/index/identity';
import { AREA_H3_RES, allocateColumns, permuteFacilities, type SpatialIndex } from '../src/area/spatial-index';
import { AREA_CARRIED, type AreaColumns, type AreaIndex } from '../src/index/declared-columns';
import type { IndexInfo } from '../src/index/model';

const { values } = parseArgs({ options: { index: { type: 'string' }, runs: { type: 'string' }, variant: { type: 'string' }, out: { type: 'string' } } });
const indexPath = values.index ?? 'var/bench/national.sqlite';
const mb = (kb: number) => Math.round(kb / 1024);
const status = (key: string) => Number(/\d+/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key)) ?? '0')?.[0]);

/** The columns the stored index was laid out from: position k of the stored arrays is registry position rank[k]. */
function columnsOf(s: SpatialIndex): AreaColumns {
  const c = allocateColumns(s.count, AREA_CARRIED) as AreaColumns;
  c.states = s.states;
  const inverse = new Uint32Array(s.count);
  for (let k = 0; k < s.count; k++) inverse[s.rank[k]!] = k;
  permuteFacilities(c, s, inverse);
  c.unplaced = (s as AreaIndex).unplaced;
  return c;
}

/** A collector holding `c` as if ingest had added its rows (the same arrays, no copy). */
function collectorOf(c: AreaColumns, where: ConstructorParameters<typeof SpatialCollector>[0]): SpatialCollector {
  const collector = new SpatialCollector(where);
  collector.columns = () => c;
  return collector;
}

if (values.variant) {
  // one measured run, in a fresh process
  const db = new Database(indexPath, { readonly: true });
  const info = JSON.parse((db.query("SELECT value FROM index_meta WHERE key = 'info'").get() as { value: string }).value) as IndexInfo;
  db.close();
  const loaded = loadSpatialFile(spatialFilePath(indexPath), indexIdentity(info), AREA_H3_RES);
  if (!loaded.ok) throw new Error(`${spatialFilePath(indexPath)}: ${loaded.reason}`);
  let cols: AreaColumns | null = columnsOf(loaded.spatial);
  const collector = collectorOf(cols, values.variant === 'child' ? {} : 'in-process');
  cols = null;
  Bun.gc(true);
  const rssBefore = status('VmRSS');
  const started = performance.now();
  const p = await collector.prepareBeside(values.out!, info);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ variant: values.variant, ms, rssBeforeMb: mb(rssBefore), selfPeakMb: mb(status('VmHWM')), file: p.tmpPath }));
} else {
  if (!existsSync(spatialFilePath(indexPath))) {
    console.error(`no ${spatialFilePath(indexPath)}: ingest the index first (docs/ingest.md), or pass --index`);
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'fcs-bench-layout-'));
  const runs = Number(values.runs ?? 2);
  const results: Record<string, { ms: number[]; peak: number[] }> = { 'in-process': { ms: [], peak: [] }, child: { ms: [], peak: [] } };
  try {
    for (let r = 0; r < runs; r++) {
      const files: Record<string, string> = {};
      for (const variant of r % 2 ? ['child', 'in-process'] : ['in-process', 'child']) {
        const proc = Bun.spawn([process.execPath, import.meta.path, '--index', indexPath, '--variant', variant, '--out', join(dir, `${variant}.sqlite`)], { stdout: 'pipe', stderr: 'inherit' });
        const text = await new Response(proc.stdout).text();
        if ((await proc.exited) !== 0) throw new Error(`${variant} run failed`);
        const out = JSON.parse(text) as { ms: number; rssBeforeMb: number; selfPeakMb: number; file: string };
        // The process tree's largest RSS: this run's process, or its layout child (ru_maxrss of children is the largest one).
        const peak = mb(proc.resourceUsage()!.maxRSS / 1024);
        results[variant]!.ms.push(out.ms);
        results[variant]!.peak.push(variant === 'child' ? peak : out.selfPeakMb);
        files[variant] = out.file;
        console.log(`run ${r + 1} ${variant.padEnd(10)} step ${(out.ms / 1000).toFixed(2)} s  RSS before the step ${out.rssBeforeMb} MiB  peak of the laying-out process ${variant === 'child' ? `${peak} MiB (child; this process ${out.selfPeakMb} MiB)` : `${out.selfPeakMb} MiB`}`);
      }
      const same = readFileSync(files['child']!).equals(readFileSync(files['in-process']!));
      console.log(`run ${r + 1} area files byte for byte the same: ${same}`);
      if (!same) process.exitCode = 1;
      for (const f of Object.values(files)) rmSync(f, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b), m = v.length >> 1;
    return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
  };
  const [a, b] = [results['in-process']!, results.child!];
  console.log(`median step: in-process ${(median(a.ms) / 1000).toFixed(2)} s, child ${(median(b.ms) / 1000).toFixed(2)} s (child/in-process ${(median(b.ms) / median(a.ms)).toFixed(2)})`);
  console.log(`median peak RSS of the laying-out process: in-process ${median(a.peak)} MiB, child ${median(b.peak)} MiB`);
}
