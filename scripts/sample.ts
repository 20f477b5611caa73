#!/usr/bin/env bun
/**
 * The bundled FICTITIOUS sample (docs/ingest.md):
 *   npx bun run scripts/sample.ts ensure     build data/sample.sqlite from the committed CSV if missing or stale (fast otherwise)
 *   npx bun run scripts/sample.ts build      rebuild it unconditionally
 *   npx bun run scripts/sample.ts generate   regenerate the committed CSV from the generator (maintainers)
 * Stale = the CSV's SHA-256, the score method version, the ingest version or the index format changed.
 */
import { SpatialCollector } from '../src/index/area/spatial-collector';
import { loadSpatialFile, spatialFilePath } from '../src/index/area/spatial-file';
import { AREA_H3_RES } from '../src/area/spatial-index';
import { indexIdentity } from '../src/index/identity';
import type { IndexInfo } from '../src/index/model';
import { Database } from 'bun:sqlite';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest, INGEST_VERSION } from '../src/ingest/ingest';
import { INDEX_FORMAT } from '../src/index/schema';
import { SCORE_VERSION } from '../src/scoring/score';

const ROOT = join(import.meta.dir, '..');
export const SAMPLE = {
  csv: join(ROOT, 'data', 'sample-echo-exporter.csv.gz'),
  index: join(ROOT, 'data', 'sample.sqlite'),
  seed: 'sample-v1',
  rows: 20_000,
  asOf: '2026-10-31',
};

/** Why the index needs (re)building, or null when it is current. */
function staleReason(): string | null {
  if (!existsSync(SAMPLE.index)) return 'missing';
  if (!existsSync(spatialFilePath(SAMPLE.index))) return 'its area index file is missing';
  try {
    const db = new Database(SAMPLE.index, { readonly: true });
    const meta = new Map((db.query('SELECT key, value FROM index_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    db.close();
    const info = JSON.parse(meta.get('info') ?? '{}') as { score_version?: string; sources?: { sha256: string }[] };
    const sha = createHash('sha256').update(readFileSync(SAMPLE.csv)).digest('hex');
    if (meta.get('format') !== INDEX_FORMAT) return `index format ${meta.get('format')} != ${INDEX_FORMAT}`;
    if (info.score_version !== SCORE_VERSION) return `score version ${info.score_version} != ${SCORE_VERSION}`;
    if (meta.get('ingest_version') !== INGEST_VERSION) return `ingest version ${meta.get('ingest_version')} != ${INGEST_VERSION}`;
    if (info.sources?.[0]?.sha256 !== sha) return 'sample CSV changed';
    const area = loadSpatialFile(spatialFilePath(SAMPLE.index), indexIdentity(info as IndexInfo), AREA_H3_RES);
    if (!area.ok) return `its area index file is not usable (${area.reason})`;
    return null;
  } catch (e) {
    return `unreadable (${(e as Error).message})`;
  }
}

async function build(): Promise<void> {
  const s = await ingest({
    files: [SAMPLE.csv],
    out: SAMPLE.index,
    asOf: SAMPLE.asOf,
    datasetName: `FICTITIOUS sample: ${SAMPLE.rows.toLocaleString('en-US')} invented facilities (generator seed ${SAMPLE.seed}), not EPA data`,
    fictitious: true,
    log: () => {},
    showRejects: 0,
    companions: [new SpatialCollector()],
  });
  console.error(`sample: built ${SAMPLE.index}: ${s.info.facility_count} facilities, ${s.info.row_counts.rejected} rejected rows, ${s.seconds.toFixed(1)} s`);
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
  const why = staleReason();
  if (why) {
    console.error(`sample: rebuilding data/sample.sqlite (${why})`);
    await build();
  }
} else {
  console.error('usage: npx bun run scripts/sample.ts ensure|build|generate');
  process.exit(2);
}
