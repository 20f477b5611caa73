#!/usr/bin/env bun
/**
 * Writes a FICTITIOUS dataset in the exact 2025 ECHO exporter format (see docs/ingest.md):
 *   npx bun run scripts/generate-sample.ts --rows 20000 --seed sample-v1 --as-of 2026-10-31 --out data/x.csv.gz
 * Streams: any size in bounded memory. `.gz` output is gzip-compressed; `--out -` writes to stdout.
 */
import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import { buildTempPath } from '../src/index/index-writer';
import { exporterLines } from './synth/generator';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    seed: { type: 'string', default: 'sample-v1' },
    'as-of': { type: 'string', default: '2026-10-31' },
    out: { type: 'string', default: '-' },
    'gzip-level': { type: 'string', default: '6' },
  },
});

const rows = Number(values.rows);
if (!Number.isInteger(rows) || rows < 0) throw new Error(`--rows must be a whole number, got ${values.rows}`);
const out = values.out!;
// written beside the target and renamed at the end: a half-written file never has the final name
const tmp = buildTempPath(out);
const file: Writable = out === '-' ? process.stdout : createWriteStream(tmp);
let sink: Writable = file;
if (out.endsWith('.gz')) {
  sink = createGzip({ level: Number(values['gzip-level']) });
  sink.pipe(file);
}

const started = performance.now();
let batch: string[] = [];
let written = 0;
for (const line of exporterLines({ seed: values.seed!, rows, asOf: values['as-of']! })) {
  batch.push(line);
  if (batch.length === 2000) {
    if (!sink.write(batch.join('\r\n') + '\r\n')) await once(sink, 'drain');
    written += batch.length;
    batch = [];
    if (out !== '-' && written % 200_000 < 2000) console.error(`generate: ${written - 1} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}
if (batch.length) sink.write(batch.join('\r\n') + '\r\n');
sink.end();
await once(file, 'finish');
if (out !== '-') renameSync(tmp, out);
if (out !== '-') console.error(`generate: wrote ${rows} rows to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
