import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EARTH_RADIUS_MILES } from '../../../src/area/geo';
import { SpatialCollector, registryOrder } from '../../../src/index/area/spatial-collector';
import { loadSpatialFile, spatialFilePath, writeSpatialFile } from '../../../src/index/area/spatial-file';
import { indexIdentity } from '../../../src/index/identity';
import { nameAt } from '../../../src/area/text-bytes';
import { AREA_H3_RES, allocateColumns, putRegistryId, registryIdAt, type SpatialIndex } from '../../../src/area/spatial-index';
import { buildSpatialIndex, readSpatialColumns } from '../../../src/index/area/spatial-columns';
import { searchRadius, type RadiusQuery } from '../../../src/area/spatial-search';
import { FacilityIndex } from '../../../src/index/facility-index';
import type { FacilityRow } from '../../../src/index/model';
import { csvText, exporterRow, runIngest, writeFile } from '../../ingest/support';
import { siteFactBitsOf } from '../../../src/index/site-facts';
import { factsOf } from '../../../src/scoring/facts';
import { memoryIndex } from '../../helpers';
import { scatter } from '../../site-report/fixtures';
import { PLACES, cluster, rng } from '../../area/fixtures';
import { indexRowOf } from '../../support/index-row';

const dir = mkdtempSync(join(tmpdir(), 'fcs-area-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rand = rng(5);
// Some names beyond ASCII, so the stored UTF-8 names are checked byte for byte.
// and facilities with varied records (SNC, enforcement, programs, RCRA universes, TRI), so their site facts differ
const RECORDS = scatter(rng(6), PLACES.houston, 80, 5, 997000000000).map((g) => g.row);
const ROWS = [...cluster(rand, PLACES.houston, 400, 20, EARTH_RADIUS_MILES), ...cluster(rand, PLACES.guam, 100, 10, EARTH_RADIUS_MILES), ...RECORDS].map((r, i) =>
  i % 10 === 0 ? { ...r, fac_name: `ÉTABLISSEMENTS MÜLLER — ñ 東 ${i} (FICTITIOUS)` } : r,
);
const QUERIES: RadiusQuery[] = [PLACES.houston, PLACES.guam].flatMap((p) =>
  (['distance', 'score'] as const).flatMap((sort) => [
    { lat: p.lat, lng: p.lng, radiusMiles: 15, limit: 500, sort, state: null, activeEnforcement: null },
    { lat: p.lat, lng: p.lng, radiusMiles: 25, limit: 7, sort, state: p.state, activeEnforcement: true },
  ]),
);
const answers = (s: SpatialIndex) => QUERIES.map((q) => searchRadius(s, q).map((h) => `${registryIdAt(s, h.pos)} ${nameAt(s, h.pos)}@${h.distance}`));
const built = buildSpatialIndex(memoryIndex(ROWS));

/** Inverts `n` bytes spread evenly over the second half of the file at `path` (its arrays), or from `from` on. */
function flipBytes(path: string, n = 2000, from?: number): void {
  const bytes = readFileSync(path);
  const start = from ?? Math.floor(bytes.length / 2);
  const step = Math.max(1, Math.floor((bytes.length - start) / n));
  for (let i = 0; i < n; i++) bytes[start + i * step] = bytes[start + i * step]! ^ 0xff;
  writeFileSync(path, bytes);
}

/** The row as ingest hands it to its companions. */
const encoded = (r: FacilityRow, siteFacts: number) => indexRowOf(r, { site_facts: siteFacts });

describe('the area file (the release\'s spatial index)', () => {
  it('loads in place (a view over the mapped file, no copy) with the same answers as a build', () => {
    const path = join(dir, 'roundtrip.area');
    writeSpatialFile(path, built, 'id-1');
    const loaded = loadSpatialFile(path, 'id-1', AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    expect(loaded.spatial.origin).toBe('stored');
    expect(loaded.spatial.idOther).toEqual(built.idOther);
    expect(loaded.spatial.idOther.size).toBeGreaterThan(0);
    // Every array is a view over one buffer the size of the file: the mapping itself.
    expect(loaded.spatial.lat.buffer.byteLength).toBe(statSync(path).size);
    expect(loaded.spatial.cellHi.buffer).toBe(loaded.spatial.lat.buffer);
    expect(answers(loaded.spatial)).toEqual(answers(built));
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it.each([
    ['no file', (_p: string) => undefined, 'id-1', AREA_H3_RES, 'no area file'],
    ['another index', (_p: string) => undefined, 'id-2', AREA_H3_RES, 'another build'],
    ['another resolution', (_p: string) => undefined, 'id-1', 7, 'resolution'],
    ['a truncated file', (p: string) => truncateSync(p, statSync(p).size - 100), 'id-1', AREA_H3_RES, 'truncated'],
    ['garbage', (p: string) => writeFileSync(p, 'not an area file at all'.repeat(10)), 'id-1', AREA_H3_RES, 'not an area file'],
    ['2,000 bytes flipped across its arrays', flipBytes, 'id-1', AREA_H3_RES, 'fails its checksum'],
    ['one byte flipped in its names', (p: string) => flipBytes(p, 1, statSync(p).size - 8), 'id-1', AREA_H3_RES, 'damaged: array'],
    ['an older SQLite sidecar', (p: string) => new Database(p, { create: true }).exec('CREATE TABLE area_index (name TEXT)'), 'id-1', AREA_H3_RES, 'not an area file'],
  ])('is not used when it is %s, and says why', (name, damage, identity, res, reason) => {
    const path = join(dir, `damaged-${name.replace(/\W/g, '')}.area`);
    if (name !== 'no file') writeSpatialFile(path, built, 'id-1');
    rmSync(name === 'an older SQLite sidecar' ? path : join(dir, 'nothing'), { force: true });
    damage(path);
    const out = loadSpatialFile(path, identity, res);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.reason).toContain(reason);
  });
});

describe('collecting the spatial index while ingest writes the index', () => {
  it('gives the same columns as reading the finished table, whatever the row order and ID shapes', () => {
    const shuffled = [...ROWS].sort(() => rand() - 0.5);
    const index = memoryIndex(ROWS);
    const c = new SpatialCollector();
    // the site facts as ingest derives them (the table's were derived by the writer: the same function)
    for (const r of shuffled) c.add(encoded(r, siteFactBitsOf(factsOf(r.score_inputs, index.info.as_of), r.score_inputs.programs, r.evidence ?? null)));
    const fromRows = c.columns();
    const fromTable = readSpatialColumns(index);
    // State codes are numbered in the order first seen, so compare the decoded states.
    const states = (cols: typeof fromRows) => Array.from(cols.state, (s) => cols.states[s]);
    expect(states(fromRows)).toEqual(states(fromTable));
    for (const k of ['lat', 'lng', 'score', 'flags', 'site', 'idNum', 'idLen', 'idOther', 'count'] as const) expect(fromRows[k]).toEqual(fromTable[k]);
    expect(new Set(fromTable.site).size).toBeGreaterThan(3);
    const names = (cols: typeof fromRows) => Array.from({ length: cols.count }, (_, i) => new TextDecoder().decode(cols.nameBytes.subarray(cols.nameStart[i]!, cols.nameStart[i + 1]!)));
    expect(names(fromRows)).toEqual(names(fromTable));
    const addresses = (cols: typeof fromRows) => Array.from({ length: cols.count }, (_, i) => new TextDecoder().decode(cols.addrBytes.subarray(cols.addrStart[i]!, cols.addrStart[i + 1]!)));
    expect(addresses(fromRows)).toEqual(addresses(fromTable));
    expect(addresses(fromTable)).toEqual([...ROWS].sort((a, b) => (a.registry_id < b.registry_id ? -1 : 1)).map((r) => `${r.fac_street}\x1f${r.fac_city}\x1f${r.fac_zip}`));
  });

  it('orders registry IDs as SQLite orders the text key: radix sort for 12-digit IDs, a string sort otherwise', () => {
    const r = rng(9);
    const twelve = Array.from({ length: 5000 }, () => String(100000000000 + Math.floor(r() * 899999999999)));
    const mixed = ['9', '10', '0099', 'A-1', '110000000001', '99-X', ...twelve.slice(0, 50)];
    const columnsOf = (ids: string[]) => {
      const c = allocateColumns(ids.length);
      ids.forEach((id, i) => putRegistryId(c, i, id));
      return c;
    };
    for (const ids of [twelve, mixed]) {
      const order = registryOrder(columnsOf(ids))!;
      expect(Array.from(order, (p) => ids[p])).toEqual([...ids].sort());
    }
    expect(registryOrder(columnsOf(['1', '2', '3']))).toBeNull();
    expect(registryOrder(columnsOf(['9', '10']))).toEqual(new Uint32Array([1, 0]));
  });

  it('is written beside the index by ingest, tied to that build, and used in place', async () => {
    const rows = Array.from({ length: 60 }, (_, i) =>
      exporterRow({ REGISTRY_ID: String(990000000100 - i * 7), FAC_LAT: (29.5 + i * 0.01).toFixed(4), FAC_LONG: (-95.5 + (i % 7) * 0.02).toFixed(4) }),
    );
    const csv = writeFile(dir, 'release.csv', csvText(rows));
    const out = join(dir, 'release.sqlite');
    const { summary } = await runIngest([csv], out, { companions: [new SpatialCollector()], inline: true });
    expect(summary.companionFiles.map((f) => f.path)).toEqual([spatialFilePath(out)]);
    const index = FacilityIndex.open(out);
    const loaded = loadSpatialFile(spatialFilePath(out), indexIdentity(index.info), AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    const q: RadiusQuery = { lat: 29.7, lng: -95.4, radiusMiles: 25, limit: 500, sort: 'score', state: null, activeEnforcement: null };
    const ids = (s: SpatialIndex) => searchRadius(s, q).map((h) => `${registryIdAt(s, h.pos)}@${h.distance}`);
    expect(ids(loaded.spatial)).toEqual(ids(buildSpatialIndex(index)));
    expect(ids(loaded.spatial).length).toBeGreaterThan(10);
    index.close();

    // A new build of the same path makes the old file another build's: never used for the new index.
    await runIngest([csv], out, { inline: true });
    const rebuilt = FacilityIndex.open(out);
    const stale = loadSpatialFile(spatialFilePath(out), indexIdentity(rebuilt.info), AREA_H3_RES);
    expect(stale.ok ? 'used' : stale.reason).toContain('another build');
    rebuilt.close();
    expect(existsSync(spatialFilePath(out))).toBe(true);
  });
});
