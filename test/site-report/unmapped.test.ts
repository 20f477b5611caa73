import { describe, expect, it } from 'bun:test';
import { Database } from 'bun:sqlite';
import { buildSpatialIndex } from '../../src/area/spatial-index';
import { FacilityIndex } from '../../src/index/facility-index';
import { IndexWriter } from '../../src/index/index-writer';
import type { FacilityRow } from '../../src/index/model';
import { fillSearchTables } from '../../src/index/search/table';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { buildSiteReport } from '../../src/site-report/service';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { tempPath } from '../support/temp-dir';
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

/**
 * An index as it will be once facilities without coordinates are kept: the same tables, with
 * `facility.lat`/`lng` nullable and those facilities' coordinates NULL (built by today's writer,
 * then copied into the relaxed schema, search tables refilled).
 */
function indexWithUnmapped(rows: FacilityRow[], unmappedIds: string[]): FacilityIndex {
  const path = tempPath('site-unmapped', 'index.sqlite');
  const w = new IndexWriter(path);
  for (const r of rows) w.add(r);
  w.finish({ dataset_name: 'test fixture', as_of: '2026-11-01', score_version: 'test', fictitious: true, built_at: new Date(FIXED_NOW).toISOString(), sources: [], row_counts: { accepted: rows.length } });
  const db = new Database(':memory:', { strict: true });
  db.prepare('ATTACH DATABASE ? AS built').run(path);
  const objects = db.query<{ type: string; name: string; sql: string }, []>("SELECT type, name, sql FROM built.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'facility_search_%' AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index'").all();
  for (const o of objects) db.exec(o.sql.replace('lat REAL NOT NULL', 'lat REAL').replace('lng REAL NOT NULL', 'lng REAL'));
  for (const o of objects) if (o.type === 'table' && !['facility_search', 'search_doc'].includes(o.name)) db.exec(`INSERT INTO main.${o.name} SELECT * FROM built.${o.name}`);
  db.exec('DETACH DATABASE built');
  db.prepare('UPDATE facility SET lat = NULL, lng = NULL WHERE registry_id IN (SELECT value FROM json_each(?))').run(JSON.stringify(unmappedIds));
  fillSearchTables(db);
  return new FacilityIndex(db);
}

describe('facilities without coordinates in the site\'s ZIP', () => {
  it('today\'s index cannot hold any: unmappedInZip is null and the report says it was not searched, and why', () => {
    const index = memoryIndex(MAPPED);
    expect(index.unmappedInZip('77002')).toBeNull();
    const r = buildSiteReport(index, buildSpatialIndex(index), { site: site('77002'), name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped).toEqual({ zip: '77002', searched: false, note: expect.stringContaining('holds no facilities without coordinates'), facilities: [] });
  });

  it('without a ZIP for the site there is nowhere to look, and the report says so', () => {
    const index = memoryIndex(MAPPED);
    const r = buildSiteReport(index, buildSpatialIndex(index), { site: site(null), name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped.searched).toBe(false);
    expect(r.unmapped.note).toContain('No ZIP for the site');
  });

  it('an index whose lat may be NULL is asked through the search tables: those of the ZIP (ZIP+4 included), by registry ID, with their record types', () => {
    const index = indexWithUnmapped([...MAPPED, ...UNMAPPED], UNMAPPED.map((r) => r.registry_id));
    expect(index.unmappedInZip('77002')!.map((r) => r.registry_id)).toEqual(['990500000011', '990500000012']);
    expect(index.unmappedInZip('77009')).toEqual([]);
    const spatial = buildSpatialIndex(memoryIndex(MAPPED));
    const r = buildSiteReport(index, spatial, { site: site('77002'), name: null, address: null, distances: defaultDistances() });
    expect(r.unmapped.searched).toBe(true);
    expect(r.unmapped.facilities.map((f) => [f.registry_id, f.categories, f.significant_violation])).toEqual([
      ['990500000011', [], false],
      ['990500000012', ['snc', 'rcra_tsd', 'rcra_generator'], true],
    ]);
    expect(r.findings.map((f) => f.registry_id)).toEqual(['990500000001', '990500000002']);
  });
});
