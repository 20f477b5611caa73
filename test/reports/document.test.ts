import { describe, expect, it } from 'bun:test';
import type { FacilityRow, IndexInfo } from '../../src/index/model';
import { renderReport } from '../../src/reports/document';
import { buildReportView } from '../../src/reports/view';
import { explainComponents } from '../../src/scoring/explain';
import { CLEAN_INPUTS, FIXED_NOW, facility } from '../helpers';
import { pdfInfo, pdfPages, pdfText, qpdfCheck } from './pdf-tools';

const INFO: IndexInfo = {
  dataset_name: 'report test fixture',
  as_of: '2026-11-01',
  facility_count: 1,
  facilities_without_location: 0,
  score_version: 'fcs-test-7',
  fictitious: true,
  built_at: '2026-11-02T00:00:00Z',
  sources: [{ name: 'fixture.csv', sha256: 'c0ffee'.padEnd(64, '0') }],
  row_counts: { accepted: 1 },
};

const TROUBLED = facility({
  registry_id: '990000000002',
  fac_name: 'GULF COAST REFINING (FICTITIOUS)',
  fac_street: '1 REFINERY RD',
  fac_city: 'HOUSTON',
  fac_state: 'TX',
  fac_zip: '77002',
  lat: 29.7604,
  lng: -95.3698,
  fac_naics: '324110',
  overall_score: 41,
  active_enforcement: true,
  violation_frequency: 3,
  penalty_severity: 8,
  recency: 5,
  repeat_offender: 10,
  score_inputs: {
    ...CLEAN_INPUTS,
    qtrs_with_nc: 8,
    history: '__VVSSV_VVSU',
    compliance_status: 'Significant Violation',
    snc_flag: true,
    programs_in_snc: 1,
    formal_action_count: 2,
    informal_action_count: 3,
    penalty_count: 2,
    total_penalties_usd: 125000,
    last_penalty_usd: 100000,
    date_last_penalty: '2025-06-12',
    date_last_formal_action: '2026-04-02',
    date_last_informal_action: '2024-01-10',
  },
});

const DOCUMENT_ID = '0a1b2c3d4e5f6a7b';
const render = (row: FacilityRow, info: IndexInfo = INFO, documentId = DOCUMENT_ID) =>
  renderReport(buildReportView(row, info, { generatedAt: FIXED_NOW, documentId }));

const pdf = await render(TROUBLED);
const text = pdfText(pdf);

describe('the dossier PDF', () => {
  it('is a well-formed PDF (qpdf --check) of one to two pages', () => {
    const check = qpdfCheck(pdf);
    expect(check.ok).toBe(true);
    expect(check.output).toContain('No syntax or stream encoding errors');
    expect(pdfPages(pdf)).toBeGreaterThanOrEqual(1);
    expect(pdfPages(pdf)).toBeLessThanOrEqual(2);
  });

  it('names the facility with its full address, registry ID, NAICS code and coordinates', () => {
    for (const s of ['GULF COAST REFINING (FICTITIOUS)', '1 REFINERY RD', 'HOUSTON, TX 77002', '990000000002', '324110', '29.76040° N, 95.36980° W']) {
      expect(text).toContain(s);
    }
  });

  it('shows the overall score and every component as points of its maximum', () => {
    expect(text).toContain('COMPLIANCE SCORE 41');
    expect(text).toContain('out of 100');
    expect(text).toContain('41 of 100');
    for (const s of ['Violation frequency', '3 of 15', 'Penalty severity', '8 of 30', 'Recency', '5 of 25', 'Repeat offender', '10 of 15', 'Baseline']) {
      expect(text).toContain(s);
    }
    expect(text).toContain('15 + 3 + 8 + 5 + 10');
  });

  it("prints the score model's one-line reason under each component", () => {
    const why = explainComponents(TROUBLED.score_inputs, INFO.as_of);
    for (const line of [why.violation_frequency, why.penalty_severity, why.recency, why.repeat_offender]) {
      expect(line.length).toBeGreaterThan(10);
      expect(text).toContain(line.replace(/\s+/g, ' '));
    }
  });

  it('states the enforcement flag', () => {
    // the flag in the words of what it means, never "open" (the data cannot tell open from closed)
    expect(text).toMatch(/ENFORCEMENT ACTION IN THE LAST 12 MONTHS|SIGNIFICANT VIOLATION BEING ADDRESSED/);
    expect(text).not.toContain('OPEN ENFORCEMENT');
  });

  it('carries the data source, as-of date, method version, generation time, document ID and page numbers', () => {
    for (const s of ['Data as of 2026-11-01', 'report test fixture', 'fixture.csv', 'Score method fcs-test-7', 'Generated 2026-11-15 12:00 UTC', `Document ${DOCUMENT_ID}`, 'Page 1 of 2', 'Page 2 of 2']) {
      expect(text).toContain(s);
    }
  });

  it('shows the compliance record the score reads, including the 12-quarter history', () => {
    for (const s of ['Significant Violation', '8 of the last 12', '$125,000', '$100,000 on 2025-06-12', '3 (last: 2024-01-10)', 'COMPLIANCE HISTORY, LAST 12 QUARTERS', 'Most recent quarter']) expect(text).toContain(s);
  });

  it('says clearly, on page 1 and in every footer, when the dataset is fictitious', () => {
    expect(text).toContain('FICTITIOUS SAMPLE DATA');
    expect(text.split('Fictitious sample data, not EPA data').length - 1).toBe(pdfPages(pdf));
  });

  it('a real-data dossier has no fictitious banner and cites EPA ECHO', async () => {
    const real = pdfText(await render(TROUBLED, { ...INFO, fictitious: false }));
    expect(real).not.toContain('FICTITIOUS SAMPLE DATA');
    expect(real).not.toContain('Fictitious sample data');
    expect(real).toContain('Source: U.S. EPA ECHO');
  });

  it('a clean facility says there is no enforcement action in the last 12 months', async () => {
    const clean = pdfText(await render(facility({ registry_id: '990000000001' })));
    expect(clean).toContain('NO ENFORCEMENT ACTION IN THE LAST 12 MONTHS');
    expect(clean).toContain('87 of 100');
  });

  it('is deterministic: the same facility, time and document ID give the same bytes; another document ID changes them', async () => {
    expect(Buffer.from(await render(TROUBLED)).equals(Buffer.from(pdf))).toBe(true);
    expect(Buffer.from(await render(TROUBLED, INFO, 'ffffffffffffffff')).equals(Buffer.from(pdf))).toBe(false);
  });

  it('keeps the exact name, in Unicode, in the document title metadata', async () => {
    const doc = await render(facility({ registry_id: '990000000005', fac_name: '東京化学 Café 🏭' }));
    expect(pdfInfo(doc).Title).toBe('Facility compliance dossier: 東京化学 Café 🏭 (990000000005)');
  });
});

describe('names and addresses the fonts cannot show do not break the render', () => {
  it.each([
    ['Latin-1 accents', 'CAFÉ NIÑO ÑANDÚ S.A.', 'CAFÉ NIÑO ÑANDÚ S.A.', false],
    ['Central European letters (transliterated)', 'ŁÓDŹ CHEMICAL ZAKŁADY', 'LÓDZ CHEMICAL ZAKLADY', false],
    ['CJK', '東京化学工業 PLANT 2', '?????? PLANT 2', true],
    ['emoji with a ZWJ sequence', 'SMILE 😀 LAB 👩‍🔬', 'SMILE ? LAB ??', true],
    ['a 300-character name without spaces', 'X'.repeat(300), 'XXXXXXXXXX', false],
  ])('%s', async (_name, fac_name, visible, lossy) => {
    const doc = await render(facility({ registry_id: '990000000007', fac_name, fac_street: `${fac_name} STREET`, fac_city: 'SÃO PAULO' }));
    expect(qpdfCheck(doc).ok).toBe(true);
    const t = pdfText(doc);
    expect(t).toContain(visible);
    expect(t).toContain('SÃO PAULO');
    expect(t.includes('cannot be shown in this document')).toBe(lossy);
  });

  it('a facility without a published quarterly history says so instead of drawing an empty strip', async () => {
    const t = pdfText(await render(facility({ registry_id: '990000000009', score_inputs: { ...CLEAN_INPUTS, history: '', inspection_count: 0, date_last_inspection: null } })));
    expect(t).toContain('No quarterly history is published for this facility.');
    expect(t).toContain('Inspections None on record');
  });

  it('an index whose as-of date the score model cannot read still gets a dossier, with the reasons marked unavailable', async () => {
    const t = pdfText(await render(TROUBLED, { ...INFO, as_of: 'unknown' }));
    expect(t).toContain('3 of 15');
    expect(t).toContain('Explanation not available for this dataset');
  });

  it('empty identity fields render as a sensible placeholder, not blank labels', async () => {
    const doc = await render(facility({ registry_id: '990000000008', fac_name: '', fac_street: '', fac_city: '', fac_state: '', fac_zip: '', fac_naics: '' }));
    const t = pdfText(doc);
    expect(t).toContain('Unnamed facility');
    expect(t).toContain('NAICS CODE Not reported');
  });
});
