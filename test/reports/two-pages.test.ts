import { afterAll, describe, expect, it } from 'bun:test';
import { BUNDLED_INDEX_PATH } from '../../src/index/bundled';
import { connectionOf, FacilityIndex, type FacilityDetail } from '../../src/index/facility-index';
import { scoreSeries } from '../../src/history/score-series';
import { peersLine, renderReport } from '../../src/reports/document';
import { programRows } from '../../src/reports/program-table';
import { buildReportView } from '../../src/reports/view';
import { explainComponents } from '../../src/scoring/explain';
import { FIXED_NOW } from '../helpers';
import { FULLEST_HISTORY, FULLEST_INFO, FULLEST_ROW } from './fullest-dossier';
import { pdfPages, pdfText, qpdfCheck } from './pdf-tools';

// A dossier is two pages: what does not fit is tightened, never left as a near-empty third page.
// The fullest record a dossier can print is the budget; the bundled sample's fullest rows are checked too.

const render = (row: FacilityDetail, info = FULLEST_INFO, history = FULLEST_HISTORY) => renderReport(buildReportView(row, info, { generatedAt: FIXED_NOW, documentId: '0123456789abcdef' }, history));

function expectTwoPages(pdf: Uint8Array): string {
  expect(qpdfCheck(pdf).ok).toBe(true);
  expect(pdfPages(pdf)).toBe(2);
  const text = pdfText(pdf);
  expect(text).toContain('Page 2 of 2');
  // A client reads this: the method is named, never a file of the service's repository.
  expect(text).not.toContain('docs/');
  expect(text).not.toContain('.md');
  return text;
}

describe('the fullest dossier', () => {
  it('fits two pages: four-line name, all four programs, 26 releases in the chart, two source files, the fictitious banner and the font note', async () => {
    const text = expectTwoPages(await render(FULLEST_ROW));
    for (const s of ['Clean Air Act', 'Clean Water Act', 'RCRA (waste)', 'Safe Drinking Water Act', 'SCORE OVER TIME', 'cannot be shown in this document', 'verify important facts', 'FICTITIOUS SAMPLE DATA']) expect(text).toContain(s);
    expect(text).toContain('scoring method fcs-2.0');
    // the method note defines the enforcement flag as the score model does (docs/scoring.md active_enforcement)
    expect(text.replace(/\s+/g, ' ')).toContain('the enforcement flag means a formal action in the last 12 months, or a significant violation being addressed');
    // the Evidence block: the DFR link, the case IDs that fit and how many more, who acted last, TRI, GHG, the completeness notes
    // page 1 carries the whole peers sentence, never cut with an ellipsis
    expect(text.replace(/\s+/g, ' ')).toContain(peersLine(buildReportView(FULLEST_ROW, FULLEST_INFO, { generatedAt: FIXED_NOW, documentId: '0123456789abcdef' }, FULLEST_HISTORY)));
    for (const s of ['ECHO facility report none: not an EPA Registry ID', '06-2001-1000', 'and 19 more', 'Latest action by EPA, 2026-10-15', '123,456,790 lb on site', '12,345,679 t CO2e', 'Data completeness: Not enough data to judge this facility (inactive; no inspection in 5 years and no quarter of known status)']) expect(text).toContain(s);
  });

  it('fits two pages as real data with a two-line enforcement reason', async () => {
    const programs = Object.fromEntries(Object.entries(FULLEST_ROW.score_inputs.programs).map(([k, p]) => [k, { ...p!, status: 'Violation Identified', significant: false, last_formal_action_date: '2024-01-01' }]));
    const inputs = { ...FULLEST_ROW.score_inputs, compliance_status: 'Violation Identified', significant_violation: false, history: 'SSSSVVVVUUUV', date_last_formal_action: '2024-01-01', programs: programs as typeof FULLEST_ROW.score_inputs.programs };
    const row = { ...FULLEST_ROW, active_enforcement: false, score_inputs: inputs };
    expect(explainComponents(inputs, FULLEST_INFO.as_of).active_enforcement.length).toBeGreaterThan(70);
    const text = expectTwoPages(await render(row, { ...FULLEST_INFO, fictitious: false }));
    expect(text).toContain('NO ENFORCEMENT ACTION IN THE LAST 12 MONTHS');
  });

  it('prints each program as one line of the table, not reported values as n/r with the legend', async () => {
    const inputs = { ...FULLEST_ROW.score_inputs, programs: { ...FULLEST_ROW.score_inputs.programs, sdwa: { ...FULLEST_ROW.score_inputs.programs.sdwa!, qtrs_with_nc: null, penalties_usd: null } } };
    const rows = programRows(inputs);
    expect(rows.map((r) => r[0])).toEqual(['Clean Air Act', 'Clean Water Act', 'RCRA (waste)', 'Safe Drinking Water Act']);
    expect(rows[3]).toEqual(['Safe Drinking Water Act', 'Serious Violator', 'Yes', 'n/r', '14', '37', 'n/r', '2026-09-30']);
    const text = expectTwoPages(await render({ ...FULLEST_ROW, score_inputs: inputs }));
    expect(text).toContain('n/r: not reported by the source file');
    expect(text).toContain('High Priority Violation Yes 12 14 37 $12,345,678 2026-09-30');
  });
});

describe('the bundled sample', () => {
  const index = FacilityIndex.open(BUNDLED_INDEX_PATH);
  afterAll(() => index.close());
  const ids = (connectionOf(index).query('SELECT registry_id FROM facility').all() as { registry_id: string }[]).map((r) => r.registry_id);
  // The rows with the most to print: most programs, then the longest name and reasons.
  const bulk = (d: FacilityDetail) => programRows(d.score_inputs).length * 1000 + d.fac_name.length + Object.values(explainComponents(d.score_inputs, index.info.as_of)).join('').length / 10;
  const fullest = ids
    .map((id) => index.getDetail(id)!)
    .sort((a, b) => bulk(b) - bulk(a))
    .slice(0, 4);
  const spread = ids.filter((_, i) => i % 4000 === 0).map((id) => index.getDetail(id)!);

  it.each([...fullest, ...spread].map((d) => [d.registry_id, d] as const))('facility %s is two pages', async (_id, row) => {
    const history = scoreSeries(index.historyOf(row.registry_id), index.releases());
    expectTwoPages(await render(row, index.info, history));
  });

  it('the fullest rows of the sample are in all four programs', () => {
    expect(programRows(fullest[0]!.score_inputs).length).toBe(4);
  });
});
