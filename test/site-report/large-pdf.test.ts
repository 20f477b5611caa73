import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances } from '../../src/site-report/categories';
import { renderSiteReport } from '../../src/site-report/document';
import { buildSiteReport } from '../../src/site-report/service';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { rng } from '../area/fixtures';
import { pdfPages, pdfText, qpdfCheck } from '../reports/pdf-tools';
import { scatter } from './fixtures';

// As dense as a downtown site on the national index gets: 2,300 facilities within a mile.
const SITE = { lat: 29.7604, lng: -95.3698 };
const index = memoryIndex(scatter(rng(23), SITE, 2300, 1, 990_700_000_000).map((g) => g.row));
const report = buildSiteReport(index, buildSpatialIndex(index), {
  site: { ...SITE, located_by: 'coordinates', approximate: false, zip: '77002', matched_registry_id: null, note: 'Coordinates given.' },
  name: 'Downtown block',
  address: null,
  distances: { ...defaultDistances(), adjoining: 1 },
});
const view = { report, generated_at: FIXED_NOW, document_id: '0123456789abcdef' };
const pdf = await renderSiteReport(view);

describe('a site report with 2,300 findings', () => {
  it('lists every facility found', () => {
    expect(report.findings).toHaveLength(2300);
  });

  it('is a sound PDF that prints every finding, its number and the last page\'s disclaimer', () => {
    expect(qpdfCheck(pdf).ok).toBe(true);
    const text = pdfText(pdf);
    for (const f of report.findings) expect(text).toContain(f.registry_id);
    expect(text).toContain('FINDINGS: 2300 FACILITIES, NEAREST FIRST');
    expect(text).toContain(' 2300 ');
    expect(text).toContain(`Page ${pdfPages(pdf)} of ${pdfPages(pdf)}`);
    expect(text).toContain('It is not a Phase I Environmental Site Assessment');
  });

  it('stays well under a megabyte (content streams are deflated, a map dot is a moved copy of one path)', () => {
    expect(pdf.length).toBeLessThan(1_000_000);
  });

  it('is a pure function of its view: the same view gives the same bytes, another time other bytes', async () => {
    expect(Buffer.from(await renderSiteReport(view)).equals(Buffer.from(pdf))).toBe(true);
    expect(Buffer.from(await renderSiteReport({ ...view, generated_at: FIXED_NOW + 60_000 })).equals(Buffer.from(pdf))).toBe(false);
  });
});
