import { describe, expect, it } from 'bun:test';
import { buildSpatialIndex } from '../../src/index/area/spatial-columns';
import { defaultDistances } from '../../src/site-report/categories';
import { renderSiteReport } from '../../src/site-report/document';
import { buildSiteReport } from '../../src/site-report/service';
import { FIXED_NOW, memoryIndex } from '../helpers';
import { destination, rng } from '../area/fixtures';
import { pdfText } from '../reports/pdf-tools';
import { R_MILES, withTraits } from './fixtures';

// The fullest rows a findings table meets: a long name and a long address that both wrap, each row its own ZIP+4.
const SITE = { lat: 29.7604, lng: -95.3698 };
const rand = rng(5);
const traits = { snc: true, recentFormal: true, oldFormal: false, rcra: true, cwa: true, caa: true, tri: true };
const rows = Array.from({ length: 40 }, (_, i) => {
  const base = withTraits(`9905000001${String(i).padStart(2, '0')}`, destination(SITE.lat, SITE.lng, rand() * 360, 0.02 + rand() * 0.2, R_MILES), traits);
  return {
    ...base,
    fac_name: `CONSOLIDATED PETROCHEMICAL AND SPECIALTY POLYMER MANUFACTURING COMPANY HOUSTON TERMINAL WEST UNIT NUMBER ${i} (FICTITIOUS)`,
    fac_street: `${10000 + i} NORTH SAM HOUSTON PARKWAY EAST FRONTAGE ROAD BUILDING ${i} SUITE 4500 LOADING DOCK ENTRANCE`,
    fac_city: 'NORTH HOUSTON INDUSTRIAL DISTRICT',
    fac_zip: `77${String(100 + i).padStart(3, '0')}-${String(1000 + i * 7)}`,
    evidence: { ...base.evidence!, air_ids: [`TX000099${String(i).padStart(8, '0')}01`, `TX000099${String(i).padStart(8, '0')}02`], rcra_ids: [`TXD99${String(i).padStart(7, '0')}`], rcra_universes: ['LQG'], caa_history: '___________V', last_formal_action_state: '2026-05-04' },
  };
});
const index = memoryIndex(rows);
const report = buildSiteReport(index, buildSpatialIndex(index), {
  site: { ...SITE, located_by: 'coordinates', approximate: false, zip: '77002', matched_registry_id: null, note: 'Coordinates given.' },
  name: 'Long rows',
  address: null,
  distances: defaultDistances(),
});
const text = pdfText(await renderSiteReport({ report, generated_at: FIXED_NOW, document_id: '0123456789abcdef' }));
const flat = text.replace(/\s+/g, ' ');

describe('a findings table whose names and addresses all wrap', () => {
  it('lists all 40', () => {
    expect(report.findings).toHaveLength(40);
  });

  it('prints every row whole: its registry ID and its whole ZIP+4', () => {
    for (const f of report.findings) {
      expect(text).toContain(f.registry_id);
      expect(text).toContain(f.fac_zip);
    }
  });

  it("prints each row's program IDs, generator size, latest violation quarter and latest action date", () => {
    for (const f of report.findings) for (const id of [...f.program_ids.air, ...f.program_ids.rcra]) expect(flat).toContain(id);
    expect(flat).toContain('LQG');
    expect(flat).toContain('violation 2026-Q4');
    expect(flat).toContain('action 2026-05-04');
  });
});
