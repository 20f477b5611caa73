import { Database } from 'bun:sqlite';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangeKind } from '../../src/index/history-tables/schema';
import { csvBatches } from '../../src/ingest/csv-records';
import { ingest, type IngestOptions, type IngestSummary } from '../../src/ingest/ingest';
import { openSource } from '../../src/ingest/source';
import { evolveLines, type EvolveManifest } from '../../scripts/synth/evolve';
import { exporterLines } from '../../scripts/synth/generator';
import { tempDir } from '../support/temp-dir';

/** Three weekly releases of a small fictitious file, built the way an operator would (ingest --previous). */
export type ThreeReleases = {
  dir: string;
  /** The exporter files, oldest first. */
  files: [string, string, string];
  /** What the generator changed from files[0] to files[1], and from files[1] to files[2]. */
  manifests: [EvolveManifest, EvolveManifest];
  /** The chained indexes: [0] plain, [1] --previous [0], [2] --previous [1]. */
  chained: [string, string, string];
  /** Each file ingested alone (no --previous): the direct diff the history is checked against. */
  plain: [string, string, string];
  summaries: IngestSummary[];
};

const AS_OF = ['2026-10-31', '2026-11-07', '2026-11-14'] as const;

/** Runs ingest in this thread, quietly. */
export function quietIngest(files: string[], out: string, extra: Partial<IngestOptions> = {}): Promise<IngestSummary> {
  return ingest({ files, out, log: () => {}, showRejects: 0, inline: true, ...extra });
}

/** Writes the next release of `previous` (the generator's --evolve) and returns what it changed. */
export async function evolveFile(previous: string, out: string, seed: string, changeShare: number, asOf?: string): Promise<EvolveManifest> {
  const manifest = {} as EvolveManifest;
  const lines: string[] = [];
  for await (const l of evolveLines(csvBatches(openSource(previous).chunks), { seed, asOf, changeShare }, manifest)) lines.push(l);
  writeFileSync(out, lines.join('\r\n') + '\r\n');
  return manifest;
}

let shared: Promise<ThreeReleases> | null = null;

/**
 * The three releases every history test reads (built once per test process: they take seconds).
 * Tests only read them, and write their own files under `dir` with names of their own.
 */
export function threeReleases(): Promise<ThreeReleases> {
  shared ??= buildThreeReleases();
  return shared;
}

export async function buildThreeReleases(rows = 2000, changeShare = 0.05): Promise<ThreeReleases> {
  const dir = tempDir('history');
  const files = AS_OF.map((_, i) => join(dir, `release-${i + 1}.csv`)) as ThreeReleases['files'];
  writeFileSync(files[0], [...exporterLines({ seed: 'history-test', rows, asOf: AS_OF[0], missingCoordinatesRate: 0 })].join('\r\n') + '\r\n');
  const manifests = [
    await evolveFile(files[0], files[1], 'history-week-2', changeShare),
    await evolveFile(files[1], files[2], 'history-week-3', changeShare),
  ] as ThreeReleases['manifests'];
  const chained = files.map((_, i) => join(dir, `chained-${i + 1}.sqlite`)) as ThreeReleases['chained'];
  const plain = files.map((_, i) => join(dir, `plain-${i + 1}.sqlite`)) as ThreeReleases['plain'];
  const summaries: IngestSummary[] = [];
  for (const i of [0, 1, 2] as const) {
    summaries.push(await quietIngest([files[i]], chained[i], i === 0 ? {} : { previous: chained[i - 1] }));
    await quietIngest([files[i]], plain[i]);
  }
  return { dir, files, manifests, chained, plain, summaries };
}

export type ScoreTuple = {
  overall_score: number; violation_frequency: number; penalty_severity: number; recency: number; repeat_offender: number; active_enforcement: number;
};

/** Every facility of an index file with the values the history tracks. */
export function facilityTuples(path: string): Map<string, ScoreTuple> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .query('SELECT registry_id, overall_score, violation_frequency, penalty_severity, recency, repeat_offender, active_enforcement FROM facility')
      .all() as (ScoreTuple & { registry_id: string })[];
    return new Map(rows.map(({ registry_id, ...t }) => [registry_id, t]));
  } finally {
    db.close();
  }
}

/** The direct diff of two releases, facility by facility: what the history of the later one must hold. */
export function directDiff(before: Map<string, ScoreTuple>, after: Map<string, ScoreTuple>): { added: string[]; changed: string[]; removed: string[] } {
  const added: string[] = [], changed: string[] = [], removed: string[] = [];
  for (const [id, t] of after) {
    const b = before.get(id);
    if (!b) added.push(id);
    else if (JSON.stringify(b) !== JSON.stringify(t)) changed.push(id);
  }
  for (const id of before.keys()) if (!after.has(id)) removed.push(id);
  return { added: added.sort(), changed: changed.sort(), removed: removed.sort() };
}

/** History rows of one release, by kind, from an index file (plain SQL, as a third party would read it). */
export function historyRowsOf(path: string, seq: number): Record<ChangeKind, string[]> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<ChangeKind, string[]> = { added: [], changed: [], removed: [], rescored: [] };
    for (const r of db.query('SELECT registry_id, change FROM history WHERE seq = ? ORDER BY registry_id').all(seq) as { registry_id: string; change: ChangeKind }[]) {
      out[r.change].push(r.registry_id);
    }
    return out;
  } finally {
    db.close();
  }
}
