import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { approximateLocationReason, isAreaCentreMethod } from '../../src/index/location-quality';
import type { FacilityRow } from '../../src/index/model';
import { defaultDistances } from '../../src/site-report/categories';
import type { LocatedSite } from '../../src/site-report/locate';
import { buildSiteReport, type SiteQuery } from '../../src/site-report/service';
import { nearestZip } from '../../src/site-report/zip-centres';
import { memoryIndex } from '../helpers';
import { destination } from '../area/fixtures';
import { R_MILES, withTraits } from './fixtures';

const SITE = { lat: 29.7604, lng: -95.3698 };
const plain = { snc: false, recentFormal: false, oldFormal: false, rcra: false, cwa: false, caa: false };
const located = (over: Partial<LocatedSite> = {}): LocatedSite => ({ ...SITE, located_by: 'coordinates', approximate: false, zip: '77002', matched_registry_id: null, note: 'test', ...over });
const query = (over: Partial<SiteQuery> = {}): SiteQuery => ({ site: located(), name: null, address: null, distances: defaultDistances(), reportDate: '2026-11-29', ...over });
const placed = (id: string, at: { lat: number; lng: number }, loc_accuracy_m: number | null, loc_method: string, traits = plain): FacilityRow => ({ ...withTraits(id, at, traits), loc_accuracy_m, loc_method });
const report = (rows: FacilityRow[], over: Partial<SiteQuery> = {}, asOf = '2026-11-01') => {
  const index = memoryIndex(rows, { as_of: asOf });
  return buildSiteReport(index, buildSpatialIndex(index), query(over));
};

describe('which collection methods place an area\'s centre, not the facility', () => {
  it.each(['ZIP CODE-CENTROID', 'ZIP+2 CENTROID', 'ZIP+4 CENTROID', 'CENSUS BLOCK/GROUP-1990-CENTROID', 'COUNTY CENTROID', 'CITY CENTROID', 'PUBLIC LAND SURVEY-SECTION'])('%s is an area centre', (m) => {
    expect(isAreaCentreMethod(m)).toBe(true);
  });
  it.each(['ADDRESS MATCHING-HOUSE NUMBER', 'GPS CODE (PSEUDO RANGE) DIFFERENTIAL', 'INTERPOLATION-PHOTO', 'UNKNOWN'])('%s is not', (m) => {
    expect(isAreaCentreMethod(m)).toBe(false);
  });
  it('a reason names the stated accuracy, and the method of a centroid', () => {
    expect(approximateLocationReason(3000, 'INTERPOLATION-MAP', 1000)).toBe('approximate location (±3000 m)');
    expect(approximateLocationReason(3000, 'ZIP CODE-CENTROID', 1000)).toBe('approximate location (zip code-centroid, ±3000 m)');
    expect(approximateLocationReason(null, 'ZIP CODE-CENTROID', 1000)).toBe('approximate location (zip code-centroid)');
    expect(approximateLocationReason(25, 'INTERPOLATION-PHOTO', 1000)).toBeNull();
    expect(approximateLocationReason(null, null, 1000)).toBeNull();
  });
});

describe('a facility located only approximately is never claimed on site or adjoining', () => {
  const rows = [
    placed('990600000001', SITE, 3000, 'ZIP CODE-CENTROID', { ...plain, snc: true, rcra: true }),
    placed('990600000002', destination(SITE.lat, SITE.lng, 90, 0.1, R_MILES), 2000, 'INTERPOLATION-MAP'),
    placed('990600000003', destination(SITE.lat, SITE.lng, 180, 0.1, R_MILES), 30, 'ADDRESS MATCHING-HOUSE NUMBER'),
    placed('990600000004', destination(SITE.lat, SITE.lng, 0, 0.2, R_MILES), null, ''),
  ];

  it('a ZIP centroid at the site point and a point of ±2,000 m are listed with the unmapped records, with the reason, not as findings', () => {
    const r = report(rows);
    expect(r.findings.map((f) => [f.registry_id, f.location_accuracy_m, f.location_method])).toEqual([
      ['990600000003', 30, 'ADDRESS MATCHING-HOUSE NUMBER'],
      ['990600000004', null, null],
    ]);
    const apart = r.unmapped.facilities.filter((f) => f.reason !== 'no coordinates');
    expect(apart.map((f) => [f.registry_id, f.reason, f.zip, f.categories])).toEqual([
      ['990600000001', 'approximate location (zip code-centroid, ±3000 m)', '77002', ['snc', 'rcra_generator']],
      ['990600000002', 'approximate location (±2000 m)', '77002', []],
    ]);
    expect(r.summary.find((s) => s.category === 'adjoining')!.counts.on_site).toBe(0);
    expect(r.warnings.map((w) => w.code)).toContain('APPROXIMATE_FACILITY_LOCATIONS');
  });

  it('the accuracy limit is a setting: at 5,000 m the ±2,000 m point is placed again (a centroid never is)', () => {
    const r = report(rows, { approximateMeters: 5000 });
    expect(r.findings.map((f) => f.registry_id).sort()).toEqual(['990600000002', '990600000003', '990600000004']);
    expect(r.unmapped.facilities.map((f) => f.registry_id)).toEqual(['990600000001']);
  });
});

describe('facilities without coordinates around a site given by coordinates alone', () => {
  it('the site\'s ZIP is the one whose centre is nearest, and the note says so', () => {
    const nearest = nearestZip(SITE.lat, SITE.lng)!;
    const r = report([placed('990600000010', SITE, null, '')], { site: located({ zip: null }) });
    expect(r.site.zip).toBe(nearest.zip);
    expect(r.site.note).toContain(`ZIP ${nearest.zip} is the one whose centre is nearest the site`);
    expect(r.unmapped.searched).toBe(true);
    expect(r.unmapped.zips[0]).toBe(nearest.zip);
  });

  it('an SNC generator without coordinates in a ZIP next door (77003) is listed, with its ZIP and why', () => {
    const neighbour = { ...withTraits('990600000020', SITE, { ...plain, snc: true, rcra: true }), fac_zip: '77003', lat: null, lng: null };
    const r = report([placed('990600000010', SITE, null, ''), neighbour], { site: located({ zip: null }) });
    expect(r.unmapped.facilities.map((f) => [f.registry_id, f.zip, f.reason, f.categories])).toEqual([['990600000020', '77003', 'no coordinates', ['snc', 'rcra_generator']]]);
  });

  it('far from every ZIP (mid-ocean) there is none to look in, and the report says so', () => {
    const r = report([placed('990600000010', { lat: 0.5, lng: -140 }, null, '')], { site: located({ lat: 0.5, lng: -140, zip: null }) });
    expect(r.site.zip).toBeNull();
    expect(r.unmapped).toMatchObject({ searched: false, zips: [] });
    expect(r.warnings.map((w) => w.code)).toContain('UNMAPPED_NOT_SEARCHED');
  });
});

describe('a site placed at its ZIP\'s centre', () => {
  const rows = [placed('990600000030', SITE, 10, 'INTERPOLATION-PHOTO'), placed('990600000031', destination(SITE.lat, SITE.lng, 90, 0.1, R_MILES), 10, 'INTERPOLATION-PHOTO', { ...plain, snc: true })];
  const approx = located({ located_by: 'zip_centroid', approximate: true });

  it('claims nothing on site or adjoining, says why in the adjoining row and a warning, and still lists the other categories', () => {
    const r = report(rows, { site: approx });
    expect(r.findings.map((f) => [f.registry_id, f.categories, f.direction])).toEqual([['990600000031', ['snc'], 'E']]);
    const adjoining = r.summary.find((s) => s.category === 'adjoining')!;
    expect(adjoining).toMatchObject({ coverage: 'not_searched', total: 0 });
    expect(adjoining.note).toContain('Withheld: the site is placed at the centre of its ZIP');
    expect(r.summary.every((s) => s.counts.on_site === 0)).toBe(true);
    expect(r.warnings.find((w) => w.code === 'APPROXIMATE_SITE')!.message).toContain('no facility is claimed on site or adjoining');
  });

  it('the same point given as coordinates claims both', () => {
    const r = report(rows);
    expect(r.findings.map((f) => [f.registry_id, f.categories])).toEqual([
      ['990600000030', ['on_site']],
      ['990600000031', ['adjoining', 'snc']],
    ]);
    expect(r.warnings.map((w) => w.code)).not.toContain('APPROXIMATE_SITE');
  });
});

describe('warnings', () => {
  const rows = [placed('990600000040', SITE, null, '')];
  it('data as of more than 90 days before the report date: DATA_OLDER_THAN_90_DAYS, with both dates and the age', () => {
    const r = report(rows, { reportDate: '2026-11-29' }, '2025-06-30');
    expect(r.warnings.find((w) => w.code === 'DATA_OLDER_THAN_90_DAYS')!.message).toContain('as of 2025-06-30, 517 days before this report (2026-11-29)');
  });
  it('data 90 days old is not stale', () => {
    const r = report(rows, { reportDate: '2026-11-29' }, '2026-08-31');
    expect(r.warnings.map((w) => w.code)).not.toContain('DATA_OLDER_THAN_90_DAYS');
  });
  it('a fictitious dataset says so', () => {
    expect(report(rows).warnings.map((w) => w.code)).toContain('FICTITIOUS_DATA');
  });
});

describe('the PDF prints the warnings', () => {
  it('stale data and approximate facility locations are in a WARNINGS box on the cover; unplaced facilities carry their reason', async () => {
    const { renderSiteReport } = await import('../../src/site-report/document');
    const { pdfText } = await import('../reports/pdf-tools');
    const r = report([placed('990600000050', SITE, 3000, 'ZIP CODE-CENTROID')], {}, '2025-06-30');
    const text = (await pdfText(await renderSiteReport({ report: r, generated_at: Date.parse('2026-11-29T12:00:00Z'), document_id: 'test' }))).replace(/\s+/g, ' ');
    expect(text).toContain('WARNINGS');
    expect(text).toContain('as of 2025-06-30, 517 days before this report');
    expect(text).toContain('approximate location (zip code-centroid, ±3000 m)');
  });
});
