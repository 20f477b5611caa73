import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { buildSpatialIndex } from '../../src/area/spatial-index';
import { spatialFilePath, loadSpatialFile } from '../../src/area/spatial-file';
import { AREA_H3_RES } from '../../src/area/spatial-index';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { indexIdentity } from '../../src/index/identity';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { buildSiteReport, siteReportJson, type SiteQuery } from '../../src/site-report/service';
import { SAMPLE } from '../../scripts/sample';
import { memoryIndex } from '../helpers';
import { rng } from '../area/fixtures';
import { scatter } from './fixtures';

const siteAt = (lat: number, lng: number, zip: string | null = null): LocatedSite => ({ lat, lng, located_by: 'coordinates', approximate: false, zip, matched_registry_id: null, note: 'test' });
const META = { request_id: 'req_test', timestamp: '2026-11-01T00:00:00Z', quota: { limit: 1, used: 1 } };

/** The bytes the JSON form sends against JSON.stringify of the report the other forms use. */
function expectSameJson(index: FacilityIndex, spatial: ReturnType<typeof buildSpatialIndex>, q: SiteQuery): number {
  const bytes = siteReportJson(index, spatial, q, META);
  const report = buildSiteReport(index, spatial, q);
  expect(Buffer.from(bytes).toString('utf8')).toBe(JSON.stringify({ data: report, meta: META }));
  return report.findings.length;
}

describe('the site report JSON written from the spatial index', () => {
  it('is byte for byte JSON.stringify of the report, on the bundled sample at its densest spot (stored area file)', () => {
    const index = FacilityIndex.open(SAMPLE.index);
    const loaded = loadSpatialFile(spatialFilePath(SAMPLE.index), indexIdentity(index.info), AREA_H3_RES);
    if (!loaded.ok) throw new Error(loaded.reason);
    const dense = connectionOf(index).query('SELECT avg(lat) AS lat, avg(lng) AS lng, min(fac_zip) AS zip FROM facility WHERE lat IS NOT NULL GROUP BY round(lat, 1), round(lng, 1) ORDER BY count(*) DESC LIMIT 1').get() as { lat: number; lng: number; zip: string };
    const wide = { ...defaultDistances(), adjoining: 2, snc: 2 };
    const n = expectSameJson(index, loaded.spatial, { site: siteAt(dense.lat, dense.lng, dense.zip.slice(0, 5)), name: 'Lot "7" \\ north', address: null, distances: wide });
    expect(n).toBeGreaterThan(40);
  });

  it('escapes names and addresses exactly as JSON.stringify does, whatever they hold (quotes, backslashes, control characters, any script)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0000', '\u0001', '\u001f', '\u007f', 'é', '東', '😀', '\u2028', '/'), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.record({ name: text, street: text, city: text, zip: text }), { minLength: 1, maxLength: 25 }), fc.integer(), (texts, seed) => {
        const site = { lat: 29.76, lng: -95.37 };
        const rows = scatter(rng(seed), site, texts.length, 0.2, 990_200_000_000).map((g, i) => ({ ...g.row, fac_name: texts[i]!.name, fac_street: texts[i]!.street, fac_city: texts[i]!.city, fac_zip: texts[i]!.zip }));
        const index = memoryIndex(rows);
        expect(expectSameJson(index, buildSpatialIndex(index), { site: siteAt(site.lat, site.lng), name: null, address: null, distances: defaultDistances() })).toBe(texts.length);
      }),
      { numRuns: 40 },
    );
  });

  it('writes an empty list when nothing is found', () => {
    const index = memoryIndex(scatter(rng(3), { lat: 29.76, lng: -95.37 }, 20, 0.2, 990_300_000_000).map((g) => g.row));
    expect(expectSameJson(index, buildSpatialIndex(index), { site: siteAt(40, -100), name: null, address: null, distances: defaultDistances() })).toBe(0);
  });
});
