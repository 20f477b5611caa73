import { afterAll, describe, expect, it } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EARTH_RADIUS_MILES } from '../../src/area/geo';
import { spatialFilePath, writeSpatialFile } from '../../src/index/area/spatial-file';
import { indexIdentity } from '../../src/index/identity';
import { registryIdAt, type SpatialIndex } from '../../src/area/spatial-index';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { searchRadius } from '../../src/area/spatial-search';
import { FacilityIndex } from '../../src/index/facility-index';
import { IndexWriter } from '../../src/index/index-writer';
import { prepareSpatial } from '../../src/ops/index-preparer';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { PLACES, cluster, rng } from '../area/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'fcs-preparer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ROWS = cluster(rng(3), PLACES.chicago, 300, 15, EARTH_RADIUS_MILES);
const q = { lat: PLACES.chicago.lat, lng: PLACES.chicago.lng, radiusMiles: 20, limit: 500, sort: 'score' as const, state: null, activeEnforcement: null };
const answer = (s: SpatialIndex) => searchRadius(s, q).map((h) => `${registryIdAt(s, h.pos)}@${h.distance}`);
const expected = answer(buildSpatialIndex(memoryIndex(ROWS)));

function indexFile(name: string): string {
  const path = join(dir, name);
  const w = new IndexWriter(path);
  for (const r of ROWS) w.add(r);
  w.finish({ dataset_name: 'preparer test', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: {} });
  return path;
}

function logger() {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: (e: Record<string, unknown>) => void lines.push(e) };
}

describe('prepareSpatial: the spatial index serve passes into the app', () => {
  it('is ready at once, in place from the file, when the release carries it', () => {
    const path = indexFile('carried.sqlite');
    const index = FacilityIndex.open(path);
    writeSpatialFile(spatialFilePath(path), buildSpatialIndex(index), indexIdentity(index.info));
    const { lines, log } = logger();
    const handle = prepareSpatial(index, log);
    expect(handle.state).toBe('ready');
    expect(handle.source).toBe('file');
    expect(answer(handle.current!)).toEqual(expected);
    expect(String(lines[0]?.msg)).toContain(`from ${spatialFilePath(path)}`);
    index.close();
  });

  it('for an index without one: not ready at first, built on a worker thread, saved beside the index for the next start', async () => {
    const path = indexFile('old-release.sqlite');
    writeFileSync(spatialFilePath(path), 'an older sidecar, not an area file');
    const index = FacilityIndex.open(path);
    const { lines, log } = logger();
    const handle = prepareSpatial(index, log);
    expect(handle.state).toBe('loading');
    expect(handle.current).toBeNull();
    const s = await handle.ready;
    expect(handle.source).toBe('worker');
    expect(answer(s)).toEqual(expected);
    expect(lines.some((l) => String(l.msg).includes('not used (not an area file)'))).toBe(true);
    expect(lines.some((l) => String(l.msg).startsWith(`area spatial index saved to ${spatialFilePath(path)}`))).toBe(true);
    const next = prepareSpatial(index, () => {});
    expect(next.source).toBe('file');
    expect(answer(next.current!)).toEqual(expected);
    index.close();
  });

  it('for an in-memory index carrying no area file: built on a worker from a copy of its bytes', async () => {
    const handle = prepareSpatial(memoryIndex(ROWS), () => {});
    expect(handle.state).toBe('loading');
    expect(answer(await handle.ready)).toEqual(expected);
    expect(handle.source).toBe('worker');
  });

  it("an in-memory index carrying its area file (the binary's embedded sample) is ready at once; one of another build is refused", async () => {
    const index = memoryIndex(ROWS);
    const areaPath = join(dir, 'embedded.area');
    writeSpatialFile(areaPath, buildSpatialIndex(index), indexIdentity(index.info));
    index.areaFile = new Uint8Array(readFileSync(areaPath));
    const handle = prepareSpatial(index, () => {});
    expect(handle.state).toBe('ready');
    expect(handle.source).toBe('file');
    expect(answer(handle.current!)).toEqual(expected);

    const other = memoryIndex(ROWS);
    writeSpatialFile(areaPath, buildSpatialIndex(other), indexIdentity({ ...other.info, built_at: '2000-01-01T00:00:00.000Z' }));
    other.areaFile = new Uint8Array(readFileSync(areaPath));
    const { lines, log } = logger();
    const rebuilt = prepareSpatial(other, log);
    expect(rebuilt.state).toBe('loading');
    expect(lines.some((l) => l.level === 'warn' && String(l.msg).includes('another build of the index'))).toBe(true);
    expect(answer(await rebuilt.ready)).toEqual(expected);
    expect(rebuilt.source).toBe('worker');
  });

  it('a directory where the file cannot be written costs a warning, not the area search', async () => {
    const path = indexFile('unwritable.sqlite');
    // A directory in the way makes the final rename fail, as a read-only directory would (root, running CI, cannot be given one).
    rmSync(spatialFilePath(path), { force: true });
    mkdirSync(join(spatialFilePath(path), 'occupied'), { recursive: true });
    const index = FacilityIndex.open(path);
    const { lines, log } = logger();
    const handle = prepareSpatial(index, log);
    expect(answer(await handle.ready)).toEqual(expected);
    expect(lines.some((l) => l.level === 'warn' && String(l.msg).includes('not saved beside the index'))).toBe(true);
    expect(existsSync(join(spatialFilePath(path), 'occupied'))).toBe(true);
    index.close();
  });
});
