#!/usr/bin/env bun
/**
 * The bundled FICTITIOUS sample (docs/ingest.md):
 *   npx bun run scripts/sample.ts ensure     build data/sample.sqlite from the committed CSV if missing or stale (fast otherwise), and data/zip-table.tsv
 *   npx bun run scripts/sample.ts build      rebuild it unconditionally
 *   npx bun run scripts/sample.ts generate   regenerate the committed CSV from the generator (maintainers)
 * The index holds two releases: the committed CSV rewound a month by the generator (derived at each
 * build, never committed: scripts/synth/rewind.ts), then the CSV itself ingested with --previous, so
 * it carries score changes. Stale = the CSV's SHA-256, the score method version, the ingest version,
 * the index format or the releases (their dates, the rewind's version) changed.
 */
import { SpatialCollector } from '../src/index/area/spatial-collector';
import { loadSpatialFile, spatialFilePath } from '../src/index/area/spatial-file';
import { AREA_H3_RES } from '../src/area/spatial-index';
import { indexIdentity } from '../src/index/identity';
import type { IndexInfo } from '../src/index/model';
import { Database } from 'bun:sqlite';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvBatches } from '../src/ingest/csv-records';
import { openSource } from '../src/ingest/source';
import { ingest, INGEST_VERSION } from '../src/ingest/ingest';
import { INDEX_FORMAT } from '../src/index/schema';
import { SCORE_VERSION } from '../src/scoring/score';
import { REWIND_VERSION, rewindLines, type RewindSummary } from './synth/rewind';
import { ensureZipTable } from './zip-table';

const ROOT = join(import.meta.dir, '..');
export const SAMPLE = {
  csv: join(ROOT, 'data', 'sample-echo-exporter.csv.gz'),
  index: join(ROOT, 'data', 'sample.sqlite'),
  seed: 'sample-v1',
  rows: 20_000,
  asOf: '2026-10-31',
  /** The release before it, a month earlier: the CSV rewound (same seed). */
  previousAsOf: '2026-09-30',
};

const DATASET_NAME = `FICTITIOUS sample: ${SAMPLE.rows.toLocaleString('en-US')} invented facilities (generator seed ${SAMPLE.seed}), not EPA data`;
const PREVIOUS_NAME = `FICTITIOUS sample a month earlier: the same invented facilities rewound to ${SAMPLE.previousAsOf} (generator ${REWIND_VERSION}), not EPA data`;
/** The releases the index must hold, oldest first. */
const RELEASES = [`${SAMPLE.previousAsOf} ${PREVIOUS_NAME}`, `${SAMPLE.asOf} ${DATASET_NAME}`];

/** Why the index needs (re)building, or null when it is current. */
function staleReason(): string | null {
  if (!existsSync(SAMPLE.index)) return 'missing';
  if (!existsSync(spatialFilePath(SAMPLE.index))) return 'its area index file is missing';
  try {
    const db = new Database(SAMPLE.index, { readonly: true });
    const meta = new Map((db.query('SELECT key, value FROM index_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    const releases = (db.query('SELECT as_of, dataset_name FROM release ORDER BY seq').all() as { as_of: string; dataset_name: string }[]).map((r) => `${r.as_of} ${r.dataset_name}`);
    db.close();
    const info = JSON.parse(meta.get('info') ?? '{}') as { score_version?: string; sources?: { sha256: string }[] };
    const sha = createHash('sha256').update(readFileSync(SAMPLE.csv)).digest('hex');
    if (meta.get('format') !== INDEX_FORMAT) return `index format ${meta.get('format')} != ${INDEX_FORMAT}`;
    if (info.score_version !== SCORE_VERSION) return `score version ${info.score_version} != ${SCORE_VERSION}`;
    if (meta.get('ingest_version') !== INGEST_VERSION) return `ingest version ${meta.get('ingest_version')} != ${INGEST_VERSION}`;
    if (info.sources?.[0]?.sha256 !== sha) return 'sample CSV changed';
    if (releases.join('\n') !== RELEASES.join('\n')) return 'its releases are not the two the sample ships';
    const area = loadSpatialFile(spatialFilePath(SAMPLE.index), indexIdentity(info as IndexInfo), AREA_H3_RES);
    if (!area.ok) return `its area index file is not usable (${area.reason})`;
    return null;
  } catch (e) {
    return `unreadable (${(e as Error).message})`;
  }
}

/** Builds the sample's index at `out`: the earlier release (the CSV rewound), then the CSV with --previous. */
export async function buildSample(out = SAMPLE.index): Promise<{ changes: Record<string, number>; rewound: RewindSummary; seconds: number }> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'fcs-sample-'));
  try {
    const rewound = {} as RewindSummary;
    const lines: string[] = [];
    for await (const line of rewindLines(csvBatches(openSource(SAMPLE.csv).chunks), { seed: SAMPLE.seed, asOf: SAMPLE.previousAsOf, currentAsOf: SAMPLE.asOf }, rewound)) lines.push(line);
    const earlierCsv = join(dir, 'sample-earlier.csv');
    writeFileSync(earlierCsv, lines.join('\r\n') + '\r\n');
    const earlier = join(dir, 'sample-earlier.sqlite');
    const common = { fictitious: true, log: () => {}, showRejects: 0 };
    await ingest({ ...common, files: [earlierCsv], out: earlier, asOf: SAMPLE.previousAsOf, datasetName: PREVIOUS_NAME });
    const s = await ingest({ ...common, files: [SAMPLE.csv], out, asOf: SAMPLE.asOf, datasetName: DATASET_NAME, previous: earlier, companions: [new SpatialCollector()] });
    return { changes: s.release.changes, rewound, seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function build(): Promise<void> {
  const { changes, seconds } = await buildSample();
  const changed = Object.entries(changes).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`).join(', ');
  console.error(`sample: built ${SAMPLE.index} in ${seconds.toFixed(1)} s: releases ${SAMPLE.previousAsOf} and ${SAMPLE.asOf} (${changed} in the later one)`);
}

async function generate(): Promise<void> {
  const proc = Bun.spawn(
    [process.execPath, 'run', join(ROOT, 'scripts', 'generate-sample.ts'), '--rows', String(SAMPLE.rows), '--seed', SAMPLE.seed, '--as-of', SAMPLE.asOf, '--out', SAMPLE.csv, '--gzip-level', '9'],
    { stdout: 'inherit', stderr: 'inherit' },
  );
  if ((await proc.exited) !== 0) throw new Error('generator failed');
}

const command = import.meta.main ? (process.argv[2] ?? 'ensure') : null;
if (command === null) {
  // imported (tests read SAMPLE): do nothing
} else if (command === 'generate') {
  await generate();
  await build();
} else if (command === 'build') {
  await build();
} else if (command === 'ensure') {
  // the bundled ZIP table ships with the sample: every way the service starts or is built runs this
  if (ensureZipTable()) console.error('sample: wrote data/zip-table.tsv from the zipcodes package');
  const why = staleReason();
  if (why) {
    console.error(`sample: rebuilding data/sample.sqlite (${why})`);
    await build();
  }
} else {
  console.error('usage: npx bun run scripts/sample.ts ensure|build|generate');
  process.exit(2);
}
