import { Database } from 'bun:sqlite';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import type { Log } from '../log';
import type { FacilityIndex } from '../index/facility-index';
import { buildTempPath } from '../index/index-writer';
import { AREA_H3_RES, buildSpatialIndex, type SpatialIndex } from './spatial-index';
import { readSpatialIndex, writeSpatialIndex } from './spatial-store';

// One spatial index per open facility index; dropped with it (a rotated index gets its own).
const built = new WeakMap<FacilityIndex, SpatialIndex>();

/** Where the sidecar copy of an index file's spatial index lives. */
export function sidecarPath(indexPath: string): string {
  return `${indexPath}.area`;
}

/** What a sidecar must match: the index's own metadata (build time, sources, counts) and its file's size and mtime. */
function sidecarIdentity(index: FacilityIndex, path: string): string {
  const st = statSync(path);
  return JSON.stringify({ info: index.info, size: st.size, mtimeMs: st.mtimeMs });
}

/** Builds quicker than this are not worth a file beside the index (the bundled sample takes ~0.2 s). */
export const SIDECAR_MIN_BUILD_MS = 1_000;

/**
 * The spatial index of `index`, made on first use: read from a fresh sidecar (`<index>.area`), else
 * built from the facility table and, when that took a while, saved as a sidecar for the next start
 * (skipped, with a log line, where the directory is read-only). `serve` calls this before
 * listening, so no request pays for it.
 */
export function spatialIndexFor(index: FacilityIndex, log?: Log, opts: { minBuildMsToSave?: number } = {}): SpatialIndex {
  const known = built.get(index);
  if (known) return known;
  const file = index.db.filename;
  const onDisk = file !== '' && file !== ':memory:' && existsSync(file);
  // (Storing it inside the index file at ingest was tried and dropped: docs/area-and-portfolio.md.)
  let s: SpatialIndex | null = null;
  let from = '';
  if (onDisk && existsSync(sidecarPath(file))) {
    s = readSidecar(index, file, log);
    from = sidecarPath(file);
  }
  if (!s) {
    s = buildSpatialIndex(index);
    from = 'facility table';
    if (onDisk && s.buildMs >= (opts.minBuildMsToSave ?? SIDECAR_MIN_BUILD_MS)) saveSidecar(index, s, file, log);
  }
  log?.({ level: 'info', msg: `area spatial index ready: ${s.count} facilities, ${s.cellLat.length} H3 cells (res ${s.res}) from ${from} in ${Math.round(s.buildMs)} ms` });
  built.set(index, s);
  return s;
}

/** The sidecar's copy if it is fresh; an unreadable or corrupt sidecar is only a reason to rebuild. */
function readSidecar(index: FacilityIndex, file: string, log?: Log): SpatialIndex | null {
  try {
    const side = new Database(sidecarPath(file), { readonly: true });
    try {
      return readSpatialIndex(side, AREA_H3_RES, sidecarIdentity(index, file));
    } finally {
      side.close();
    }
  } catch (e) {
    log?.({ level: 'warn', msg: `area spatial index sidecar ${sidecarPath(file)} unreadable (${(e as Error).message}); rebuilding` });
    return null;
  }
}

function saveSidecar(index: FacilityIndex, s: SpatialIndex, file: string, log?: Log): void {
  const target = sidecarPath(file);
  const tmp = buildTempPath(target);
  try {
    rmSync(tmp, { force: true });
    const db = new Database(tmp, { create: true });
    try {
      db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
      writeSpatialIndex(db, s, sidecarIdentity(index, file));
    } finally {
      db.close();
    }
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { force: true });
    log?.({ level: 'warn', msg: `area spatial index not saved to ${target} (${(e as Error).message}); it will be rebuilt at the next start` });
  }
}

/**
 * Installs a spatial index made elsewhere for `index`: serve's SIGHUP reload makes it on a worker
 * thread (src/ops/index-preparer.ts) so the old index keeps serving meanwhile. Keep SpatialIndex
 * structured-cloneable (typed arrays, Maps, arrays, strings, numbers) for that hand-over.
 */
export function adoptSpatialIndex(index: FacilityIndex, spatial: SpatialIndex): void {
  built.set(index, spatial);
}
