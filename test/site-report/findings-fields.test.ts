import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { Finding } from '../../src/site-report/model';
import { buildSiteReport, type SiteQuery } from '../../src/site-report/service';
import { memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { R_MILES, scatter, withTraits } from './fixtures';
import { quarterBefore } from '../../src/site-report/finding-detail';

const site = (lat: number, lng: number, zip: string | null = null): LocatedSite => ({ lat, lng, located_by: 'coordinates', approximate: false, zip, matched_registry_id: null, note: 'test' });

/** The findings as a client reads them: the report through JSON and back. */
const findingsOf = (index: ReturnType<typeof memoryIndex>, q: SiteQuery) =>
  JSON.parse(JSON.stringify({ data: buildSiteReport(index, buildSpatialIndex(index), q) })).data.findings as Finding[];

describe("a site report's findings as the JSON answer carries them", () => {
  it('keep names and addresses with quotes, backslashes, control characters and non-ASCII letters exactly', () => {
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
    const findings = findingsOf(memoryIndex(rows), { site: site(at.lat, at.lng, '77002'), name: null, address: '1 Main St', distances: defaultDistances() });
    expect(findings.map((f) => f.fac_name).sort()).toEqual([...odd].sort());
    for (const f of findings) {
      const i = odd.indexOf(f.fac_name);
      expect([f.fac_street, f.fac_city, f.fac_zip]).toEqual([odd[(i + 1) % odd.length]!, odd[(i + 2) % odd.length]!, i % 2 ? '77002' : '']);
    }
  });

  it('keep registry IDs kept as text (not 1-15 digits) and IDs with leading zeros as they were filed', () => {
    const at = { lat: 29.7604, lng: -95.3698 };
    const traits = { snc: false, recentFormal: false, oldFormal: false, rcra: true, cwa: false, caa: false };
    const ids = ['ABC-1 "X"', '0000000000000001234', '000000000042', '7', '999999999999999'];
    const rows = ids.map((id, i) => withTraits(id, destination(at.lat, at.lng, i * 70, 0.02 + i * 0.03, R_MILES), traits));
    const index = memoryIndex(rows);
    expect(buildSpatialIndex(index).idOther.size).toBe(2);
    const findings = findingsOf(index, { site: site(at.lat, at.lng), name: null, address: null, distances: defaultDistances() });
    expect(findings.map((f) => f.registry_id).sort()).toEqual([...ids].sort());
  });

  it("each have the schema's keys in the schema's order", () => {
    const at = { lat: 40.7, lng: -74 };
    const index = memoryIndex(scatter(rng(7), at, 60, 0.2, 990_500_000_000).map((g) => g.row));
    const findings = findingsOf(index, { site: site(at.lat, at.lng), name: null, address: null, distances: defaultDistances() });
    expect(findings.length).toBeGreaterThan(10);
    for (const f of findings) expect(Object.keys(f)).toEqual(Object.keys(Finding.properties));
  });

  it('are an empty list for a site with nothing around it', () => {
    const index = memoryIndex(scatter(rng(3), { lat: 29.76, lng: -95.37 }, 20, 0.3, 990_600_000_000).map((g) => g.row));
    expect(findingsOf(index, { site: site(45, -100), name: null, address: null, distances: defaultDistances() })).toEqual([]);
  });

  it('carry the program IDs, the RCRA generator size, the latest violation quarter and the latest action date a reader pulls the file by', () => {
    const at = { lat: 29.7604, lng: -95.3698 };
    const traits = { snc: true, recentFormal: true, oldFormal: false, rcra: true, cwa: true, caa: true };
    const base = withTraits('990400000100', destination(at.lat, at.lng, 0, 0.05, R_MILES), traits);
    const filed = {
      ...base,
      evidence: {
        ...base.evidence!,
        air_ids: ['TX0000004820100001', 'TX0000004820100002'], npdes_ids: ['TXR990101'], rcra_ids: ['TXD990000101'], sdwa_ids: [], tri_ids: ['77002SMPLF99101'],
        rcra_universes: ['TSDF', 'CESQG'],
        caa_history: '___V________', cwa_history: '______S______', rcra_history: '____________',
        last_formal_action_state: '2025-02-03', last_informal_action_epa: '2026-07-09',
      },
    };
    const clean = withTraits('990400000101', destination(at.lat, at.lng, 90, 0.05, R_MILES), { ...traits, snc: false, recentFormal: false });
    const findings = findingsOf(memoryIndex([filed, clean], { as_of: '2026-11-01' }), { site: site(at.lat, at.lng), name: null, address: null, distances: defaultDistances() });
    const one = findings.find((f) => f.registry_id === '990400000100')!;
    expect(one.program_ids).toEqual({ air: ['TX0000004820100001', 'TX0000004820100002'], npdes: ['TXR990101'], rcra: ['TXD990000101'], sdwa: [], tri: ['77002SMPLF99101'] });
    expect(one.rcra_generator_size).toBe('VSQG');
    // CWA's 13th quarter is the as-of quarter (2026-Q4); its S six quarters back beats CAA's V eight back
    expect(one.latest_violation_quarter).toBe('2025-Q2');
    expect(one.latest_action_date).toBe('2026-07-09');
    const other = findings.find((f) => f.registry_id === '990400000101')!;
    expect([other.rcra_generator_size, other.latest_violation_quarter, other.latest_action_date]).toEqual(['SQG', null, null]);
  });

  it('name quarters back across a year boundary', () => {
    expect([quarterBefore('2026-11-01', 0), quarterBefore('2026-02-28', 1), quarterBefore('2026-01-01', 4), quarterBefore('2026-12-31', 11)]).toEqual(['2026-Q4', '2025-Q4', '2025-Q1', '2024-Q1']);
  });
});
