#!/usr/bin/env bun
/**
 * Writes a FICTITIOUS dataset in the exact 2025 ECHO exporter format (see docs/ingest.md):
 *   npx bun run scripts/generate-sample.ts --rows 20000 --seed sample-v1 --as-of 2026-10-31 --out data/x.csv.gz
 * Streams: any size in bounded memory. `.gz` output is gzip-compressed; `--out -` writes to stdout.
 * `--missing-coordinates 0.002` leaves that share of rows without FAC_LAT/FAC_LONG, as EPA's file has some
 * (default 0: ingest rejects such rows, so the bundled sample has none).
 *
 * The next weekly release of a file (docs/ingest.md, "Evolving a release"):
 *   bun run scripts/generate-sample.ts --evolve data/x.csv.gz --as-of 2026-11-07 --change-share 0.02 --seed week-2 --out data/y.csv.gz
 * touches a seeded share of the facilities (edited records, new enforcement, removals, additions) and writes
 * what it did, by registry ID, to --manifest (default: OUT.changes.json).
 *
 * The same file as it was at an earlier date (docs/ingest.md, "Rewinding"):
 *   bun run scripts/generate-sample.ts --rewind data/x.csv.gz --as-of 2026-09-30 --seed earlier --out data/w.csv.gz
 */
import { createWriteStream, renameSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import { buildTempPath } from '../src/index/index-writer';
import { csvBatches } from '../src/ingest/csv-records';
import { openSource } from '../src/ingest/source';
import { evolveLines, type EvolveManifest } from './synth/evolve';
import { rewindLines, type RewindSummary } from './synth/rewind';
import { exporterLines } from './synth/generator';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '20000' },
    seed: { type: 'string', default: 'sample-v1' },
    'as-of': { type: 'string' },
    evolve: { type: 'string' },
    rewind: { type: 'string' },
    'change-share': { type: 'string', default: '0.02' },
    manifest: { type: 'string' },
    out: { type: 'string', default: '-' },
    'gzip-level': { type: 'string', default: '6' },
    'missing-coordinates': { type: 'string', default: '0' },
  },
});

const rows = Number(values.rows);
if (!Number.isInteger(rows) || rows < 0) throw new Error(`--rows must be a whole number, got ${values.rows}`);
const out = values.out!;
const changeShare = Number(values['change-share']);
if (!(changeShare >= 0 && changeShare <= 1)) throw new Error(`--change-share must be between 0 and 1, got ${values['change-share']}`);
const missingCoordinatesRate = Number(values['missing-coordinates']);
if (!(missingCoordinatesRate >= 0 && missingCoordinatesRate <= 1)) throw new Error(`--missing-coordinates must be a share between 0 and 1, got ${values['missing-coordinates']}`);
const manifest = {} as EvolveManifest;
const rewound = {} as RewindSummary;
if (values.rewind && !values['as-of']) throw new Error('--rewind needs --as-of: the earlier date to rewind the file to');
const lines: AsyncIterable<string> | Iterable<string> = values.evolve
  ? evolveLines(csvBatches(openSource(values.evolve).chunks), { seed: values.seed!, asOf: values['as-of'], changeShare }, manifest)
  : values.rewind
    ? rewindLines(csvBatches(openSource(values.rewind).chunks), { seed: values.seed!, asOf: values['as-of']! }, rewound)
    : exporterLines({ seed: values.seed!, rows, asOf: values['as-of'] ?? '2026-10-31', missingCoordinatesRate });
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
for await (const line of lines) {
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
if (values.evolve) {
  const manifestPath = values.manifest ?? (out === '-' ? null : `${out}.changes.json`);
  if (manifestPath) await Bun.write(manifestPath, JSON.stringify(manifest));
  const m = manifest;
  console.error(
    `generate: evolved ${values.evolve} (as of ${m.previous_as_of}) into ${out} (as of ${m.as_of}): ${m.rows_in} rows in, ${m.rows_out} out; ` +
      `${m.changed.length} edited (${m.enforcement_started.length} new enforcement), ${m.removed.length} removed, ${m.added.length} added` +
      (manifestPath ? `; manifest ${manifestPath}` : ''),
  );
} else if (values.rewind) {
  const r = rewound;
  console.error(`generate: rewound ${values.rewind} (as of ${r.current_as_of}) into ${out} (as of ${r.as_of}): ${r.rows_in} rows in, ${r.rows_out} out; ${r.added_later.length} not there yet, ${r.removed_later.length} there then only`);
} else if (out !== '-') console.error(`generate: wrote ${rows} rows to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
