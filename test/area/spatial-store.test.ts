import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EARTH_RADIUS_MILES } from '../../src/area/geo';
import { buildSpatialIndex, registryIdAt, type SpatialIndex } from '../../src/area/spatial-index';
import { sidecarPath, spatialIndexFor } from '../../src/area/spatial-registry';
import { searchRadius, type RadiusQuery } from '../../src/area/spatial-search';
import { readSpatialIndex, writeSpatialIndex } from '../../src/area/spatial-store';
import { FacilityIndex } from '../../src/index/facility-index';
import { IndexWriter } from '../../src/index/index-writer';
import type { FacilityRow } from '../../src/index/model';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { PLACES, cluster, rng } from './fixtures';
import { tempDir } from '../support/temp-dir';

// Fixtures build in milliseconds: save their sidecars anyway.
const SAVE = { minBuildMsToSave: 0 };
const dir = tempDir('area-store');

const rand = rng(5);
const ROWS = [...cluster(rand, PLACES.houston, 400, 20, EARTH_RADIUS_MILES), ...cluster(rand, PLACES.guam, 100, 10, EARTH_RADIUS_MILES)];
const QUERIES: RadiusQuery[] = [PLACES.houston, PLACES.guam].flatMap((p) =>
  (['distance', 'score'] as const).map((sort) => ({ lat: p.lat, lng: p.lng, radiusMiles: 15, limit: 500, sort, state: null, activeEnforcement: null })),
);
const answers = (s: SpatialIndex) => QUERIES.map((q) => searchRadius(s, q).map((h) => `${registryIdAt(s, h.pos)}@${h.distance}`));

function indexFile(name: string, rows: FacilityRow[]): string {
  const path = join(dir, name);
  const w = new IndexWriter(path);
  for (const r of rows) w.add(r);
  w.finish({ dataset_name: 'store test', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  return path;
}

describe('the stored spatial index', () => {
  it('reads back to the same answers as the index it was written from', () => {
    const built = buildSpatialIndex(memoryIndex(ROWS));
    const db = new Database(':memory:');
    writeSpatialIndex(db, built, 'id-1');
    const read = readSpatialIndex(db, built.res, 'id-1');
    expect(read?.origin).toBe('stored');
    expect(read?.idOther).toEqual(built.idOther);
    expect(answers(read!)).toEqual(answers(built));
  });

  it.each([
    ['another identity', (db: Database) => void db, 6, 'id-2'],
    ['another resolution', (db: Database) => void db, 7, 'id-1'],
    ['a truncated array', (db: Database) => db.run("UPDATE area_index SET value = substr(value, 1, 16) WHERE name = 'lat'"), 6, 'id-1'],
    ['a missing array', (db: Database) => db.run("DELETE FROM area_index WHERE name = 'cellStart'"), 6, 'id-1'],
  ])('is ignored when it has %s', (_name, damage, res, identity) => {
    const db = new Database(':memory:');
    writeSpatialIndex(db, buildSpatialIndex(memoryIndex(ROWS)), 'id-1');
    damage(db);
    expect(readSpatialIndex(db, res, identity)).toBeNull();
  });

  it('is not saved beside a small index whose build is quick', () => {
    const path = indexFile('small.sqlite', ROWS);
    expect(spatialIndexFor(FacilityIndex.open(path)).origin).toBe('built');
    expect(existsSync(sidecarPath(path))).toBe(false);
  });

  it('is built at first start, saved beside the index, and read back at the next start', () => {
    const path = indexFile('sidecar.sqlite', ROWS);
    const logs: Record<string, unknown>[] = [];
    const first = FacilityIndex.open(path);
    expect(spatialIndexFor(first, (e) => void logs.push(e), SAVE).origin).toBe('built');
    expect(existsSync(sidecarPath(path))).toBe(true);
    const second = FacilityIndex.open(path);
    const s = spatialIndexFor(second, (e) => void logs.push(e));
    expect(s.origin).toBe('stored');
    expect(answers(s)).toEqual(answers(spatialIndexFor(first)));
    expect(String(logs[1]?.msg)).toContain(sidecarPath(path));
    first.close();
    second.close();
  });

  it('is rebuilt when the index file was replaced since the sidecar was written', () => {
    const path = indexFile('replaced.sqlite', ROWS);
    spatialIndexFor(FacilityIndex.open(path), undefined, SAVE);
    indexFile('replaced.sqlite', ROWS.slice(0, 300));
    utimesSync(path, new Date(), new Date(Date.now() + 5_000));
    const s = spatialIndexFor(FacilityIndex.open(path));
    expect(s.origin).toBe('built');
    expect(s.count).toBe(300);
  });

  it('is rebuilt, with a warning, when the sidecar is garbage', () => {
    const path = indexFile('garbage.sqlite', ROWS);
    writeFileSync(sidecarPath(path), 'not a database at all'.repeat(100));
    const logs: Record<string, unknown>[] = [];
    const s = spatialIndexFor(FacilityIndex.open(path), (e) => void logs.push(e), SAVE);
    expect(s.origin).toBe('built');
    expect(logs.some((l) => l.level === 'warn' && String(l.msg).includes('unreadable'))).toBe(true);
    expect(spatialIndexFor(FacilityIndex.open(path)).origin).toBe('stored');
  });

  it('still works, with a warning, when the sidecar cannot be written', () => {
    // A directory where the sidecar should go makes the final rename fail, as a read-only directory
    // would (which root, running CI, cannot be given).
    const path = indexFile('unwritable.sqlite', ROWS);
    mkdirSync(join(sidecarPath(path), 'occupied'), { recursive: true });
    const logs: Record<string, unknown>[] = [];
    const s = spatialIndexFor(FacilityIndex.open(path), (e) => void logs.push(e), SAVE);
    expect(s.origin).toBe('built');
    expect(answers(s)).toEqual(answers(buildSpatialIndex(memoryIndex(ROWS))));
    expect(logs.some((l) => l.level === 'warn' && String(l.msg).includes('not saved'))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
