import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { connectionOf, FacilityIndex } from '../../src/index/facility-index';
import type { FacilityRow } from '../../src/index/model';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { buildSiteReport } from '../../src/site-report/service';
import { memoryIndex } from '../helpers';
import { withTraits } from './fixtures';

const SITE = { lat: 29.7604, lng: -95.3698 };
const site = (zip: string | null): LocatedSite => ({ ...SITE, located_by: 'coordinates', approximate: false, zip, matched_registry_id: null, note: 'test' });
const plain = { snc: false, recentFormal: false, oldFormal: false, rcra: false, cwa: false, caa: false };

const MAPPED = [withTraits('990500000001', SITE, plain), withTraits('990500000002', { lat: 29.7610, lng: -95.3690 }, plain)];
const UNMAPPED = [
  { ...withTraits('990500000012', SITE, { ...plain, snc: true, rcra: true }), fac_zip: '77002-1234' },
  { ...withTraits('990500000011', SITE, plain), fac_zip: '77002' },
  { ...withTraits('990500000013', SITE, plain), fac_zip: '77003' },
];

/** An index holding `rows`, those of `unmappedIds` without coordinates, as ingest stores a row whose FAC_LAT/FAC_LONG are blank. */
function indexWithUnmapped(rows: FacilityRow[], unmappedIds: string[]): FacilityIndex {
  return memoryIndex(rows.map((r) => (unmappedIds.includes(r.registry_id) ? { ...r, lat: null, lng: null } : r)));
}

describe('facilities without coordinates in the site\'s ZIP and the ZIPs around it', () => {
  it('an index with none in the ZIP: searched, and the list is empty', () => {
    const index = memoryIndex(MAPPED);
    expect(index.unmappedInZip('77002')).toEqual([]);
    const r = buildSiteReport(index, buildSpatialIndex(index), { site: site('77002'), name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped).toEqual({ zip: '77002', zips: expect.arrayContaining(['77002', '77003']), searched: true, note: expect.stringContaining('0 facilities without coordinates in ZIP 77002 and the'), facilities: [] });
    expect(r.unmapped.zips[0]).toBe('77002');
  });

  it('needs no search tables: the facility table\'s index of unplaced facilities by ZIP finds them, one probe per ZIP', () => {
    const index = indexWithUnmapped([...MAPPED, ...UNMAPPED], UNMAPPED.map((r) => r.registry_id));
    const db = connectionOf(index);
    db.exec('DROP TABLE facility_search');
    const bare = new FacilityIndex(db);
    expect(bare.unmappedInZip('77002').map((r) => r.registry_id)).toEqual(['990500000011', '990500000012']);
    const plan = db.query("EXPLAIN QUERY PLAN SELECT registry_id FROM facility f WHERE substr(f.fac_zip, 1, 5) = '77002' AND f.lat IS NULL").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('facility_unplaced_zip');
  });

  it('without a ZIP for the site and none near it (mid-ocean) there is nowhere to look, and the report says so', () => {
    const index = memoryIndex(MAPPED);
    const r = buildSiteReport(index, buildSpatialIndex(index), { site: { ...site(null), lat: 0.5, lng: -140 }, name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped.searched).toBe(false);
    expect(r.unmapped.note).toContain('No ZIP for the site');
  });

  it('facilities without coordinates are found through the search tables: those of the site\'s ZIP (ZIP+4 included) by registry ID, then those of nearby ZIPs, each with its ZIP, reason and record types', () => {
    const index = indexWithUnmapped([...MAPPED, ...UNMAPPED], UNMAPPED.map((r) => r.registry_id));
    expect(index.unmappedInZip('77002')!.map((r) => r.registry_id)).toEqual(['990500000011', '990500000012']);
    expect(index.unmappedInZip('77009')).toEqual([]);
    // the area search of the same index holds only the placed facilities
    const spatial = buildSpatialIndex(index);
    expect(spatial.count).toBe(MAPPED.length);
    const r = buildSiteReport(index, spatial, { site: site('77002'), name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped.searched).toBe(true);
    expect(r.unmapped.facilities.map((f) => [f.registry_id, f.zip, f.reason, f.categories, f.significant_violation])).toEqual([
      ['990500000011', '77002', 'no coordinates', [], false],
      ['990500000012', '77002', 'no coordinates', ['snc', 'rcra_generator'], true],
      ['990500000013', '77003', 'no coordinates', [], false],
    ]);
    expect(r.findings.map((f) => f.registry_id)).toEqual(['990500000001', '990500000002']);
  });
});
