import { afterAll, describe, expect, it } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex, connectionOf } from '../../src/index/facility-index';
import { renderReport } from '../../src/reports/document';
import { NOT_REPORTED, recordRows } from '../../src/reports/record-rows';
import { buildReportView } from '../../src/reports/view';
import { explainComponents } from '../../src/scoring/explain';
import { factsOf } from '../../src/scoring/facts';
import { FIXED_NOW } from '../helpers';
import { FIXTURES, runIngest } from '../ingest/support';
import { tempDir } from '../support/temp-dir';
import { pdfText } from '../reports/pdf-tools';

// The 30 real rows of EPA's facility-search download (test/ingest/fixtures, a copy of ../shared/data), through the real ingest.
const AS_OF = '2024-06-30';
const dir = tempDir('real-rows');
await runIngest([join(FIXTURES, 'echo_facility_search_sample.csv')], join(dir, 'real.sqlite'), { asOf: AS_OF });
const index = FacilityIndex.open(join(dir, 'real.sqlite'));
const ids = (connectionOf(index).query('SELECT registry_id FROM facility ORDER BY registry_id').all() as { registry_id: string }[]).map((r) => r.registry_id);
const rows = ids.map((id) => index.getDetail(id)!);
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const isSnc = (r: (typeof rows)[number]) => factsOf(r.score_inputs, AS_OF).currentStatus === 'significant';
/** No violation quarter, no penalty, no formal or informal action: nothing in the record against it. */
const isClean = (r: (typeof rows)[number]) => {
  const f = factsOf(r.score_inputs, AS_OF);
  return f.quartersInViolation === 0 && f.currentStatus === 'none' && f.penaltyUsd === 0 && f.penalties.count === 0 && f.formalActions === 0 && f.informal.count === 0;
};
/** Only evidence: a penalty amount without a date (no violation quarter now or in 3 years). */
const onlyUndatedPenalty = (r: (typeof rows)[number]) => {
  const f = factsOf(r.score_inputs, AS_OF);
  return f.currentStatus === 'none' && f.quartersInViolation === 0 && f.penaltyUsd > 0 && f.penalties.latest === null && f.penalties.undated;
};

describe('fcs-3.0 on the 30 real ECHO rows', () => {
  const snc = rows.filter(isSnc);
  const clean = rows.filter(isClean);

  it('holds 5 facilities in SNC and a clean majority, as ECHO reports them', () => {
    expect(rows.length).toBe(30);
    expect(snc.map((r) => r.registry_id).sort()).toEqual(['110000313964', '110000368049', '110000764281', '110000880912', '110043649157']);
    expect(clean.length).toBeGreaterThanOrEqual(15);
  });

  it('scores every SNC facility below every facility with no violation quarter, penalty or action', () => {
    const worstClean = Math.min(...clean.map((r) => r.overall_score));
    const bestSnc = Math.max(...snc.map((r) => r.overall_score));
    expect(bestSnc).toBeLessThan(worstClean);
  });

  it('never scores a facility whose only evidence is an undated penalty below a facility in SNC today', () => {
    const undated = rows.filter(onlyUndatedPenalty);
    // HENRY REPEATING ARMS ($94,770), SMITH & WESSON, COLT, SIG SAUER...: penalties with no date in this format
    expect(undated.map((r) => r.registry_id)).toContain('110067543064');
    const bestSnc = Math.max(...snc.map((r) => r.overall_score));
    for (const r of undated) expect(r.overall_score).toBeGreaterThan(bestSnc);
  });

  it('has no NAICS column, so no facility gets peers (null, not an invented group)', () => {
    for (const r of rows) expect(r.peers).toBeNull();
  });
});

describe('facility-search rows (no date columns): "not reported", never an invented date or "None on record"', () => {
  const DATE = /\b(19|20)\d\d-\d\d-\d\d\b/;

  it.each(ids)('%s: the record table says Not reported for every absent column', (id) => {
    const r = rows.find((x) => x.registry_id === id)!;
    const table = Object.fromEntries(recordRows(r.score_inputs));
    for (const label of ['Informal actions', 'Last penalty', 'Federal cases']) expect(table[label]).toBe(NOT_REPORTED);
    // the total is reported (FacTotalPenalties): "None on record" only when it is 0; the count never is
    if (r.score_inputs.total_penalties_usd! > 0) expect(table.Penalties).toContain('count not reported');
    else expect(table.Penalties).toBe('None on record');
    for (const value of Object.values(table)) expect(value).not.toMatch(DATE);
  });

  it.each(ids)('%s: no explanation line carries a date other than the as-of', (id) => {
    const r = rows.find((x) => x.registry_id === id)!;
    for (const line of Object.values(explainComponents(r.score_inputs, AS_OF))) expect(line.replaceAll(AS_OF, '')).not.toMatch(DATE);
  });

  it('the PDF of HENRY REPEATING ARMS says "Last penalty Not reported" beside its $94,770, never "None on record"', async () => {
    const row = index.getDetail('110067543064')!;
    const text = pdfText(await renderReport(buildReportView(row, index.info, { generatedAt: FIXED_NOW, documentId: 'a0a0a0a0a0a0a0a0' })));
    expect(text).toContain('$94,770');
    expect(text).toMatch(/Last penalty\s+Not reported/);
    expect(text).not.toContain('None on record');
    expect(text).toContain('No NAICS code, no peer group');
  });
});
