import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances, type CategoryKey } from '../../src/site-report/categories';
import { buildSiteReport } from '../../src/site-report/service';
import type { LocatedSite } from '../../src/site-report/locate';
import { memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { chordMiles, enuBearing, expectedCategories, R_MILES, scatter, sectorOf, withTraits } from './fixtures';

const BANDS = [['on_site', 0.02, false], ['to_eighth', 0.125, true], ['to_quarter', 0.25, true], ['to_half', 0.5, true], ['to_one', 1, true], ['beyond_one', Infinity, true]] as const;
const bandOf = (d: number) => BANDS.find(([, up, incl]) => (incl ? d <= up : d < up))![0];

function siteAt(lat: number, lng: number): LocatedSite {
  return { lat, lng, located_by: 'coordinates', approximate: false, zip: null, matched_registry_id: null, note: 'test' };
}

/** Sites where the geometry is awkward: an ordinary city, the antimeridian from both sides, the far north. */
const SITES = [
  ['Houston', 29.7604, -95.3698],
  ['the antimeridian, east side (179.999 E)', 51.88, 179.999],
  ['the antimeridian, west side (179.998 W)', 51.88, -179.998],
  ['high latitude (84 N)', 84.0, -40.0],
  ['near the pole (89.98 N)', 89.98, 10.0],
] as const;

const CUSTOM: Record<CategoryKey, number> = { ...defaultDistances(), adjoining: 0.4, snc: 2, enforcement: 0.3, rcra_tsd: 0.6, npdes: 1.5 };

describe.each(SITES)('the site report against brute force, near %s', (_name, lat, lng) => {
  const rand = rng(Math.round(lat * 1000 + lng * 7));
  const generated = scatter(rand, { lat, lng }, 900, 2.3, 990_100_000_000);
  const index = memoryIndex(generated.map((g) => g.row));
  const spatial = buildSpatialIndex(index);
  const site = siteAt(lat, lng);

  it.each([
    ['the default distances', defaultDistances()],
    ['custom distances', CUSTOM],
  ] as const)('with %s, each facility is listed under exactly the categories it falls under within their distances, and nothing else is listed', (_what, distances) => {
    const report = buildSiteReport(index, spatial, { site, name: null, address: null, distances });
    const got = new Map(report.findings.map((f) => [f.registry_id, f]));
    let listed = 0;
    for (const { row, traits } of generated) {
      const miles = chordMiles(site, row);
      const want = expectedCategories(traits, miles, distances);
      const finding = got.get(row.registry_id);
      if (want.length === 0) {
        expect(finding).toBeUndefined();
        continue;
      }
      listed++;
      expect(finding?.categories).toEqual(want as CategoryKey[]);
      expect(Math.abs(finding!.distance_miles - miles)).toBeLessThan(0.0005 + 1e-9);
      if (miles < 0.02) expect(finding!.direction).toBe('on site');
      else {
        const bearing = enuBearing(site, row);
        expect(finding!.direction).toBe(sectorOf(bearing) as never);
        const diff = Math.abs(finding!.bearing_degrees - bearing);
        expect(Math.min(diff, 360 - diff)).toBeLessThan(0.05 + 1e-6);
      }
    }
    expect(report.findings).toHaveLength(listed);
    expect(listed).toBeGreaterThan(50);
  });

  it('every facility within 0.25 mi is listed, and every SNC facility within 1 mi is listed under snc (the defaults)', () => {
    const report = buildSiteReport(index, spatial, { site, name: null, address: null, distances: defaultDistances() });
    const got = new Map(report.findings.map((f) => [f.registry_id, f]));
    const near = generated.filter((g) => chordMiles(site, g.row) <= 0.25);
    const snc = generated.filter((g) => g.traits.snc && chordMiles(site, g.row) <= 1);
    expect(near.length).toBeGreaterThan(10);
    expect(snc.length).toBeGreaterThan(10);
    for (const g of near) expect(got.has(g.row.registry_id)).toBe(true);
    for (const g of snc) expect(got.get(g.row.registry_id)?.categories).toContain('snc');
  });

  it("each finding carries its location, the facility row's coordinates", () => {
    const report = buildSiteReport(index, spatial, { site, name: null, address: null, distances: defaultDistances() });
    const ids = report.findings.map((f) => f.registry_id);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Map<string, unknown>(report.findings.map((f) => [f.registry_id, f.location]))).toEqual(index.getLocations(ids));
  });

  it('findings are nearest first, then by registry ID, and the summary counts them by category and band', () => {
    const report = buildSiteReport(index, spatial, { site, name: null, address: null, distances: CUSTOM });
    const exact = new Map(generated.map((g) => [g.row.registry_id, chordMiles(site, g.row)]));
    const order = report.findings.map((f) => [exact.get(f.registry_id)!, f.registry_id] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    // ties in exact distance (stacked facilities) are broken by ID; float noise between the two formulas is far below 1e-9 mi
    expect(order.map(([d, id]) => `${d.toFixed(9)} ${id}`)).toEqual(sorted.map(([d, id]) => `${d.toFixed(9)} ${id}`));
    for (const row of report.summary) {
      const want = Object.fromEntries(BANDS.map(([k]) => [k, 0]));
      for (const f of report.findings) if (f.categories.includes(row.category)) want[bandOf(exact.get(f.registry_id)!)]!++;
      expect(row.counts).toEqual(want as never);
      expect(row.total).toBe(report.findings.filter((f) => f.categories.includes(row.category)).length);
    }
  });
});

describe('exact categories on an index of exporter files (RCRA_PERMIT_TYPES, TRI_FLAG, CAA_PERMIT_TYPES stored)', () => {
  const site = siteAt(29.7604, -95.3698);
  const at = destination(site.lat, site.lng, 45, 0.1, R_MILES);
  const rows = [
    withTraits('990300000001', at, { snc: false, recentFormal: false, oldFormal: false, rcra: true, tsdf: true, cwa: false, caa: true, caaMajor: true, tri: true }),
    withTraits('990300000002', at, { snc: false, recentFormal: false, oldFormal: false, rcra: true, tsdf: false, cwa: false, caa: true, caaMajor: false, tri: false }),
  ];
  const index = memoryIndex(rows);
  const report = buildSiteReport(index, buildSpatialIndex(index), { site, name: null, address: null, distances: defaultDistances() });

  it('rcra_tsd, rcra_generator, caa_major and tri are searched, not broadened', () => {
    for (const k of ['rcra_tsd', 'rcra_generator', 'caa_major', 'tri'] as const) expect(report.summary.find((s) => s.category === k)!.coverage).toBe('searched');
    expect(report.sources.not_searched.map((s) => s.name).join(' | ')).not.toContain('TRI_FLAG');
  });

  it('a TSDF that is a major air source and a TRI reporter is listed under each; a small generator and synthetic minor only as a generator', () => {
    const byId = new Map(report.findings.map((f) => [f.registry_id, f.categories]));
    expect(byId.get('990300000001')).toEqual(['adjoining', 'rcra_tsd', 'rcra_generator', 'tri', 'caa_major']);
    expect(byId.get('990300000002')).toEqual(['adjoining', 'rcra_generator']);
  });
});

describe('categories an index of facility-search downloads cannot decide (no RCRA_PERMIT_TYPES, TRI_FLAG or CAA_PERMIT_TYPES)', () => {
  const site = siteAt(29.7604, -95.3698);
  const { evidence: _notInTheSource, ...row } = withTraits('990200000001', site, { snc: false, recentFormal: false, oldFormal: false, rcra: true, cwa: true, caa: true });
  const rows = [row];
  const index = memoryIndex(rows);
  const report = buildSiteReport(index, buildSpatialIndex(index), { site, name: null, address: null, distances: defaultDistances() });

  it('tri is not searched: never listed, and named among the sources not searched', () => {
    expect(report.findings[0]!.categories).not.toContain('tri');
    expect(report.summary.find((s) => s.category === 'tri')!.coverage).toBe('not_searched');
    expect(report.sources.not_searched.map((s) => s.name).join(' | ')).toContain('TRI_FLAG');
  });

  it('RCRA universes and CAA major sources are broadened to the program, and the summary says so', () => {
    for (const k of ['rcra_tsd', 'rcra_generator', 'caa_major'] as const) {
      const row = report.summary.find((s) => s.category === k)!;
      expect(row.coverage).toBe('broadened');
      expect(row.note).toMatch(/not in this index/);
    }
    expect(report.summary.find((s) => s.category === 'npdes')!.coverage).toBe('searched');
  });

  it('every ASTM record source ECHO lacks is listed as not searched', () => {
    const names = report.sources.not_searched.map((s) => s.name).join(' | ');
    for (const source of ['National Priorities List', 'SEMS list', 'SEMS-Archive', 'ERNS', 'landfills', 'leaking storage tanks', 'registered storage tanks', 'institutional and engineering control', 'brownfield', 'voluntary cleanup', 'CORRACTS']) {
      expect(names).toContain(source);
    }
  });

  it('an old formal action (outside the 5-year window) is not an enforcement finding, a recent one is', () => {
    const at = destination(site.lat, site.lng, 90, 0.3, R_MILES);
    const two = [
      withTraits('990200000002', at, { snc: false, recentFormal: true, oldFormal: false, rcra: false, cwa: false, caa: false }),
      withTraits('990200000003', at, { snc: false, recentFormal: false, oldFormal: true, rcra: false, cwa: false, caa: false }),
    ];
    const idx = memoryIndex(two);
    const r = buildSiteReport(idx, buildSpatialIndex(idx), { site, name: null, address: null, distances: defaultDistances() });
    expect(r.findings.map((f) => [f.registry_id, f.categories])).toEqual([['990200000002', ['enforcement']]]);
  });
});
