import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances, type CategoryKey } from '../../src/site-report/categories';
import { siteReportJson } from '../../src/site-report/json-body';
import type { LocatedSite } from '../../src/site-report/locate';
import { Finding } from '../../src/site-report/model';
import { buildSiteReport, type SiteQuery } from '../../src/site-report/service';
import { memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { R_MILES, scatter, withTraits } from './fixtures';

const site = (lat: number, lng: number, zip: string | null = null): LocatedSite => ({ lat, lng, located_by: 'coordinates', approximate: false, zip, matched_registry_id: null, note: 'test' });
const META = { request_id: 'req-1', quota: { limit: 10, remaining: 9 } };

/** The JSON answer as the objects path would write it: JSON.stringify of buildSiteReport's report, encoded. */
const viaObjects = (index: ReturnType<typeof memoryIndex>, spatial: ReturnType<typeof buildSpatialIndex>, q: SiteQuery) =>
  Buffer.from(JSON.stringify({ data: buildSiteReport(index, spatial, q), meta: META }));

const WIDE: Record<CategoryKey, number> = { adjoining: 2, snc: 2, enforcement: 2, rcra_tsd: 2, rcra_generator: 2, tri: 2, npdes: 2, caa_major: 2 };

describe('the site report JSON written as bytes', () => {
  it.each([
    ['Houston', 29.7604, -95.3698],
    ['the antimeridian', 51.88, 179.999],
    ['the far north', 84.0, -40.0],
  ] as const)('near %s, is byte for byte the objects path, at the default distances and at 2 miles for every category', (_name, lat, lng) => {
    const rows = scatter(rng(Math.round(lat * 100)), { lat, lng }, 700, 2.2, 990_200_000_000).map((g) => g.row);
    const index = memoryIndex(rows);
    const spatial = buildSpatialIndex(index);
    for (const distances of [defaultDistances(), WIDE]) {
      const q: SiteQuery = { site: site(lat, lng), name: 'Lot "7"', address: null, distances };
      const bytes = siteReportJson(index, spatial, q, META);
      expect(JSON.parse(Buffer.from(bytes).toString()).data.findings.length).toBeGreaterThan(50);
      expect(Buffer.from(bytes).equals(viaObjects(index, spatial, q))).toBe(true);
    }
  });

  it('names and addresses with quotes, backslashes, control characters and non-ASCII letters are escaped as JSON.stringify escapes them', () => {
    const at = { lat: 29.7604, lng: -95.3698 };
    const odd = ['ACME "WEST" \\ PLANT', 'TAB\tAND\nLINE\x01', 'CAFÉ DU MONDE – ÉTABLISSEMENT', '東京 PLANT 🏭', 'DEL\x7f END', ''];
    const traits = { snc: true, recentFormal: true, oldFormal: false, rcra: true, cwa: true, caa: false };
    const rows = odd.map((name, i) => ({
      ...withTraits(`99040000000${i}`, destination(at.lat, at.lng, i * 50, 0.01 + i * 0.05, R_MILES), traits, 100 - i * 17),
      fac_name: name,
      fac_street: odd[(i + 1) % odd.length]!,
      fac_city: odd[(i + 2) % odd.length]!,
      fac_zip: i % 2 ? '77002' : '',
    }));
    const index = memoryIndex(rows);
    const spatial = buildSpatialIndex(index);
    const q: SiteQuery = { site: site(at.lat, at.lng, '77002'), name: null, address: '1 Main St', distances: defaultDistances() };
    const bytes = siteReportJson(index, spatial, q, META);
    const findings = JSON.parse(Buffer.from(bytes).toString()).data.findings as Finding[];
    expect(findings.map((f) => f.fac_name).sort()).toEqual([...odd].sort());
    expect(Buffer.from(bytes).equals(viaObjects(index, spatial, q))).toBe(true);
  });

  it('registry IDs kept as text (not 1-15 digits) and IDs with leading zeros are written as the objects path writes them', () => {
    const at = { lat: 29.7604, lng: -95.3698 };
    const traits = { snc: false, recentFormal: false, oldFormal: false, rcra: true, cwa: false, caa: false };
    const ids = ['ABC-1 "X"', '0000000000000001234', '000000000042', '7', '999999999999999'];
    const rows = ids.map((id, i) => withTraits(id, destination(at.lat, at.lng, i * 70, 0.02 + i * 0.03, R_MILES), traits));
    const index = memoryIndex(rows);
    const spatial = buildSpatialIndex(index);
    expect(spatial.idOther.size).toBe(2);
    const q: SiteQuery = { site: site(at.lat, at.lng), name: null, address: null, distances: defaultDistances() };
    const bytes = siteReportJson(index, spatial, q, META);
    expect((JSON.parse(Buffer.from(bytes).toString()).data.findings as Finding[]).map((f) => f.registry_id).sort()).toEqual([...ids].sort());
    expect(Buffer.from(bytes).equals(viaObjects(index, spatial, q))).toBe(true);
  });

  it('each finding has the schema\'s keys in the schema\'s order', () => {
    const at = { lat: 40.7, lng: -74 };
    const rows = scatter(rng(7), at, 60, 0.2, 990_500_000_000).map((g) => g.row);
    const index = memoryIndex(rows);
    const bytes = siteReportJson(index, buildSpatialIndex(index), { site: site(at.lat, at.lng), name: null, address: null, distances: defaultDistances() }, META);
    const findings = JSON.parse(Buffer.from(bytes).toString()).data.findings as object[];
    expect(findings.length).toBeGreaterThan(10);
    for (const f of findings) expect(Object.keys(f)).toEqual(Object.keys(Finding.properties));
  });

  it('a site with nothing around it writes an empty findings list in its place', () => {
    const index = memoryIndex(scatter(rng(3), { lat: 29.76, lng: -95.37 }, 20, 0.3, 990_600_000_000).map((g) => g.row));
    const q: SiteQuery = { site: site(45, -100), name: null, address: null, distances: defaultDistances() };
    const bytes = siteReportJson(index, buildSpatialIndex(index), q, META);
    expect(JSON.parse(Buffer.from(bytes).toString()).data.findings).toEqual([]);
    expect(Buffer.from(bytes).equals(viaObjects(index, buildSpatialIndex(index), q))).toBe(true);
  });
});
