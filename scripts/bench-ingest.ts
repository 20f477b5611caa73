#!/usr/bin/env bun
/**
 * Ingest benchmark:
 *   npx bun run scripts/bench-ingest.ts [FILE] [--keep PATH] [--threads auto|1|2]
 * Runs `facility-score ingest` on FILE (default var/bench/national.csv.gz) in a child process
 * and prints wall time, rows/s and peak RSS; then, in the same run, the raw baseline: Debian
 * `sqlite3 .import` of the same CSV into one all-TEXT table (no parsing of values, no scoring, no index).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = join(import.meta.dir, '..');
const { values, positionals } = parseArgs({ args: Bun.argv.slice(2), options: { keep: { type: 'string' }, threads: { type: 'string', default: 'auto' } }, allowPositionals: true });
const file = resolve(positionals[0] ?? 'var/bench/national.csv.gz');
if (!existsSync(file)) {
  console.error(`bench-ingest: ${file} not found. Make it with:
  npx bun run scripts/generate-sample.ts --rows 3200000 --seed national-v1 --as-of 2026-10-31 --out var/bench/national.csv.gz`);
  process.exit(2);
}
const work = mkdtempSync(join(dirname(file), 'bench-ingest-'));
const gz = (await Bun.file(file).slice(0, 2).bytes()).every((b, i) => b === [0x1f, 0x8b][i]);

type Run = { seconds: number; maxRssMb: number; code: number; stdout: string };

/** Runs a command, timing it and reading its peak RSS from the kernel's rusage. */
async function run(cmd: string[], stdin?: string): Promise<Run> {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdin: stdin ? new TextEncoder().encode(stdin) : 'ignore', stdout: 'pipe', stderr: 'inherit' });
  const stdout = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const seconds = (performance.now() - t0) / 1000;
  const usage = proc.resourceUsage();
  return { seconds, maxRssMb: Number(usage?.maxRSS ?? 0) / 1024 / 1024, code, stdout };
}

try {
  const out = values.keep ? resolve(values.keep) : join(work, 'bench.sqlite');
  console.error(`bench-ingest: ingesting ${file} ...`);
  const ours = await run([process.execPath, 'run', join(ROOT, 'src/main.ts'), 'ingest', file, '--out', out, '--threads', values.threads!]);
  if (ours.code !== 0) throw new Error(`ingest exited ${ours.code}`);
  process.stderr.write(ours.stdout);
  const rows = Number(/(\d+) read/.exec(ours.stdout)?.[1] ?? NaN);

  console.error('bench-ingest: sqlite3 .import baseline ...');
  const source = gz ? `|gzip -dc '${file}'` : file;
  const base = await run(['sqlite3', join(work, 'baseline.sqlite')], `PRAGMA journal_mode=OFF;\nPRAGMA synchronous=OFF;\n.mode csv\n.import "${source}" raw\nSELECT count(*) FROM raw;\n`);
  if (base.code !== 0) throw new Error(`sqlite3 exited ${base.code}`);
  const baseRows = Number(base.stdout.trim().split('\n').pop());

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`file                ${file} (${gz ? 'gzip' : 'plain'})`);
  console.log(`rows                ${fmt(rows)}   (--threads ${values.threads}: ${/(\d) threads?\)/.exec(ours.stdout)?.[1] ?? '?'} used)`);
  console.log(`ingest wall time    ${ours.seconds.toFixed(1)} s   (target <= 120 s)`);
  console.log(`ingest rows/s       ${fmt(rows / ours.seconds)}`);
  console.log(`ingest peak RSS     ${fmt(ours.maxRssMb)} MB   (target <= 1536 MB)`);
  console.log(`sqlite3 .import     ${base.seconds.toFixed(1)} s   (${fmt(baseRows)} rows, ${fmt(baseRows / base.seconds)} rows/s, peak RSS ${fmt(base.maxRssMb)} MB)`);
  console.log(`ratio ingest/import ${(ours.seconds / base.seconds).toFixed(2)}x`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
