import { afterAll, describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AREA_H3_RES } from '../../src/area/spatial-index';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { SpatialCollector } from '../../src/index/area/spatial-collector';
import { loadSpatialFile, spatialFilePath } from '../../src/index/area/spatial-file';
import { FacilityIndex } from '../../src/index/facility-index';
import { indexIdentity } from '../../src/index/identity';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { buildSiteReport, type SiteQuery } from '../../src/site-report/service';
import { csvText, exporterRow, runIngest, writeFile } from '../ingest/support';
import { removeTempDirs, tempDir } from '../support/temp-dir';
import { memoryIndex } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from './fixtures';

afterAll(removeTempDirs);

const located = (lat: number, lng: number, zip: string | null = null): LocatedSite => ({ lat, lng, located_by: 'coordinates', approximate: false, zip, matched_registry_id: null, note: 'test' });
const query = (lat: number, lng: number, distances = defaultDistances(), zip: string | null = null): SiteQuery => ({ site: located(lat, lng, zip), name: null, address: null, distances, reportDate: '2026-11-29' });

/** An exporter file of one facility filed with program IDs, a generator universe, quarter histories, action dates and location quality; ingested with its area file. */
async function release(dir: string): Promise<string> {
  const filed = exporterRow({
    REGISTRY_ID: '990000000201', FAC_LAT: '29.7604', FAC_LONG: '-95.3698', FAC_ACCURACY_METERS: '25', FAC_COLLECTION_METHOD: 'INTERPOLATION-PHOTO',
    AIR_FLAG: 'Y', AIR_IDS: 'TX0000004820100001 TX0000004820100002', NPDES_FLAG: 'Y', NPDES_IDS: 'TXR990101', RCRA_FLAG: 'Y', RCRA_IDS: 'TXD990000101', TRI_FLAG: 'Y', TRI_IDS: '77002SMPLF99101',
    RCRA_PERMIT_TYPES: 'Large Quantity Generator', CAA_3YR_COMPL_QTRS_HISTORY: '___V________', CWA_13QTRS_COMPL_HISTORY: '______S______', RCRA_3YR_COMPL_QTRS_HISTORY: '____________',
    FAC_DATE_LAST_FORMAL_ACT_ST: '02/03/2025', FAC_DATE_LAST_INFORMAL_ACT_EPA: '07/09/2026',
  });
  const plain = exporterRow({ REGISTRY_ID: '990000000202', FAC_LAT: '29.7610', FAC_LONG: '-95.3690' });
  const unplaced = exporterRow({ REGISTRY_ID: '990000000203', FAC_NAME: 'NOWHERE WORKS', FAC_LAT: '', FAC_LONG: '', FAC_ZIP: '77002-1234' });
  const out = join(dir, 'release.sqlite');
  await runIngest([writeFile(dir, 'release.csv', csvText([filed, plain, unplaced]))], out, { companions: [new SpatialCollector()], inline: true, asOf: '2026-10-31' });
  return out;
}

describe("a declared column's way from the exporter to a finding", () => {
  it('goes through ingest and the area file: the finding shows what the file held, though the rows no longer hold it', async () => {
    const out = await release(tempDir('declared-columns'));
    // the area file is tied to the build by its metadata, not by the rows: empty the rows of what the
    // findings show, and take the facility without coordinates out of the table
    const db = new Database(out);
    db.run("UPDATE facility SET evidence = NULL, loc_accuracy_m = NULL, loc_method = NULL; DELETE FROM facility WHERE registry_id = '990000000203'");
    db.close();
    const index = FacilityIndex.open(out);
    const loaded = loadSpatialFile(spatialFilePath(out), indexIdentity(index.info), AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    const report = buildSiteReport(index, loaded.spatial, query(29.7606, -95.3696, defaultDistances(), '77002'));
    expect(report.unmapped.facilities.map((f) => [f.registry_id, f.fac_name, f.zip, f.reason])).toEqual([['990000000203', 'NOWHERE WORKS', '77002', 'no coordinates']]);
    const findings = report.findings;
    expect(findings.find((f) => f.registry_id === '990000000201')).toMatchObject({
      program_ids: { air: ['TX0000004820100001', 'TX0000004820100002'], npdes: ['TXR990101'], rcra: ['TXD990000101'], sdwa: [], tri: ['77002SMPLF99101'] },
      rcra_generator_size: 'LQG',
      // CWA's 13th quarter is the as-of quarter (2026-Q4): its S six back beats CAA's V eight back
      latest_violation_quarter: '2025-Q2',
      latest_action_date: '2026-07-09',
      location_accuracy_m: 25,
      location_method: 'INTERPOLATION-PHOTO',
    });
    expect(findings.find((f) => f.registry_id === '990000000202')).toMatchObject({
      program_ids: { air: [], npdes: [], rcra: [], sdwa: [], tri: [] }, rcra_generator_size: null, latest_violation_quarter: null, latest_action_date: null, location_accuracy_m: null, location_method: null,
    });
    index.close();
  });

  it('is the same when the area index is built from the table instead of read from the file', async () => {
    const out = await release(tempDir('declared-columns'));
    const index = FacilityIndex.open(out);
    const loaded = loadSpatialFile(spatialFilePath(out), indexIdentity(index.info), AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    const q = query(29.7606, -95.3696);
    expect(buildSiteReport(index, buildSpatialIndex(index), q).findings).toEqual(buildSiteReport(index, loaded.spatial, q).findings);
    index.close();
  });

  it('is checked like every array of the area file: a byte changed in the program IDs refuses the file, naming them', async () => {
    const out = await release(tempDir('declared-columns'));
    const path = spatialFilePath(out);
    const bytes = readFileSync(path);
    const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString()) as { arrays: Record<string, [number, number]> };
    const [offset] = header.arrays.programIdsBytes!;
    bytes[offset + 2] = bytes[offset + 2]! ^ 0x20;
    writeFileSync(path, bytes);
    const index = FacilityIndex.open(out);
    const loaded = loadSpatialFile(path, indexIdentity(index.info), AREA_H3_RES);
    expect(loaded.ok ? 'loaded' : loaded.reason).toBe('damaged: array programIdsBytes fails its checksum');
    index.close();
  });
});

/** The index with every method call counted by name (reads go through its methods: test/tooling/index-boundary.test.ts). */
function counting(index: FacilityIndex): { index: FacilityIndex; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(index, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { index: proxy, calls };
}

describe('the index reads of a site report', () => {
  it('do not grow with its findings: the same for 200 findings as for a handful', () => {
    // far from any ZIP with facilities, all placed: the unmapped list looks in the same one ZIP each time
    const site = { lat: 0.5, lng: -150 };
    const plain = memoryIndex(scatter(rng(11), site, 400, 0.3, 990_700_000_000).map((g) => g.row));
    const spatial = buildSpatialIndex(plain);
    const few = { ...defaultDistances(), adjoining: 0.01, snc: 0.01, enforcement: 0.01, rcra_tsd: 0.01, rcra_generator: 0.01, tri: 0.01, npdes: 0.01, caa_major: 0.01 };
    const readsFor = (distances: ReturnType<typeof defaultDistances>) => {
      const { index, calls } = counting(plain);
      const findings = buildSiteReport(index, spatial, query(site.lat, site.lng, distances)).findings.length;
      return { findings, calls: Object.fromEntries(calls) };
    };
    const small = readsFor(few), large = readsFor(defaultDistances());
    expect(small.findings).toBeLessThan(20);
    expect(large.findings).toBeGreaterThan(200);
    expect(large.calls).toEqual(small.calls);
  });

  it('do not grow with the facilities without coordinates it lists (kept beside the area index)', () => {
    // a site far from every other ZIP: its own is the one looked in
    const site = { lat: 0.5, lng: -150 };
    const unplaced = (n: number) => scatter(rng(12), site, n, 0.3, 990_800_000_000).map((g) => ({ ...g.row, lat: null, lng: null, fac_zip: '99999' }));
    const readsFor = (n: number) => {
      const { index, calls } = counting(memoryIndex([...scatter(rng(13), site, 50, 0.3, 990_900_000_000).map((g) => g.row), ...unplaced(n)]));
      const listed = buildSiteReport(index, buildSpatialIndex(index), query(site.lat, site.lng, defaultDistances(), '99999')).unmapped.facilities.length;
      return { listed, calls: Object.fromEntries(calls) };
    };
    const few = readsFor(2), many = readsFor(60);
    expect([few.listed, many.listed]).toEqual([2, 60]);
    expect(many.calls).toEqual(few.calls);
  });
});
