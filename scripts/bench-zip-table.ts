#!/usr/bin/env bun
/**
 * The first ZIP lookup of a process, with the bundled ZIP table against the `zipcodes` package's
 * object literal it is made from: wall time to the answer and RSS after, each in a fresh process,
 * rounds alternated.
 *   npx bun run scripts/bench-zip-table.ts [--rounds 5]
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, one: { type: 'string' } } });
if (values.one) {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const state = values.one === 'table'
    ? (await import('../src/address/zip-table')).zipRecord('77002')?.state
    : (require('zipcodes') as { lookup(z: string): { state: string } }).lookup('77002')?.state;
  const ms = performance.now() - t0;
  Bun.gc(true);
  console.log(JSON.stringify({ ms, rssMb: (process.memoryUsage().rss - rss0) / 1048576, state }));
  process.exit(0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const runs: Record<string, { ms: number[]; rss: number[] }> = { package: { ms: [], rss: [] }, table: { ms: [], rss: [] } };
for (let r = 0; r < Number(values.rounds); r++) {
  for (const which of ['package', 'table'] as const) {
    const out = Bun.spawnSync([process.execPath, import.meta.path, '--one', which]).stdout.toString();
    const { ms, rssMb } = JSON.parse(out) as { ms: number; rssMb: number };
    runs[which]!.ms.push(ms);
    runs[which]!.rss.push(rssMb);
  }
}
for (const [which, { ms, rss }] of Object.entries(runs)) console.log(`${which.padEnd(8)} first lookup ${median(ms).toFixed(1)} ms, RSS +${median(rss).toFixed(1)} MiB (medians of ${ms.length})`);
