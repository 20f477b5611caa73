import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex } from '../../src/index/facility-index';
import { lookupFacility } from '../../src/facilities/service';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { SCORE_VERSION } from '../../src/scoring/score';
import { dataCompleteness } from '../../src/scoring/completeness';
import { factsOf } from '../../src/scoring/facts';
import { csvText, exporterRow, FIXTURES, runIngest, writeFile } from './support';
import { tempDir } from '../support/temp-dir';

describe('ingesting the two ECHO formats', () => {
  it('accepts a file with exactly the 2025 exporter header (EPA published layout)', async () => {
    const published = readFileSync(join(FIXTURES, 'echo_exporter_columns_2025.txt'), 'utf8').trim().split(/\r?\n/);
    expect([...EXPORTER_COLUMNS_2025] as string[]).toEqual(published);
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'ECHO_EXPORTER.csv', csvText([exporterRow(), exporterRow({ REGISTRY_ID: '990000000002' })], { columns: published }));
    const { summary } = await runIngest([file], join(dir, 'x.sqlite'));
    expect(summary.formats).toEqual(['echo-exporter']);
    expect(summary.info.row_counts).toMatchObject({ read: 2, accepted: 2, rejected: 0 });
  });

  it('reads the real facility-search download: IDs from the DFR URL, the all-comma trailer counted as blank', async () => {
    const dir = tempDir('ingest');
    const { summary } = await runIngest([join(FIXTURES, 'echo_facility_search_sample.csv')], join(dir, 'fs.sqlite'), { asOf: '2024-06-30' });
    expect(summary.formats).toEqual(['echo-facility-search']);
    expect(summary.info.row_counts).toMatchObject({ read: 31, accepted: 30, rejected: 0, blank: 1 });
    expect(summary.info.fictitious).toBe(false);
    const index = FacilityIndex.open(join(dir, 'fs.sqlite'));
    const maverick = index.getDetail('110000607059');
    expect(maverick).toMatchObject({ fac_name: 'MAVERICK ARMS', fac_city: 'EAGLE PASS', fac_state: 'TX', lat: 28.69254, lng: -100.50047 });
    expect(maverick!.score_inputs).toMatchObject({ qtrs_with_nc: 0, compliance_status: 'No Violation Identified', inspection_count: 2, history: null });
    // columns the download lacks are null (not reported), never 0 or an invented date
    expect(maverick!.score_inputs).toMatchObject({ informal_action_count: null, penalty_count: null, date_last_penalty: null, date_last_inspection: null });
    expect(maverick!.score_inputs.not_reported).toEqual(expect.arrayContaining(['history', 'penalty_count', 'date_last_penalty', 'date_last_inspection']));
    // program statuses are read; a blank or 'Not Applicable' status is a program the facility is not in
    expect(maverick!.score_inputs.programs).toMatchObject({ caa: null, cwa: { status: 'No Violation Identified', significant: false, qtrs_with_nc: null }, sdwa: null });
    // real values as EPA published them: a quoted name with a comma, SNC flag Y, a penalty total without a count
    expect(index.getDetail('110000764281')).toMatchObject({ fac_name: 'BERETTA, U.S.A.' });
    expect(index.getDetail('110000764281')!.score_inputs).toMatchObject({ qtrs_with_nc: 11, compliance_status: 'Significant Violation', snc_flag: true, programs_in_snc: null });
    expect(index.getDetail('110012447566')!.score_inputs).toMatchObject({ formal_action_count: 1, total_penalties_usd: 43419, penalty_count: null, snc_flag: false });
    // a lookup's data_completeness names the layout and what it lacks: a formal action and penalties with no date
    const completeness = lookupFacility(index, '110012447566', 'free').data_completeness!;
    expect(completeness).toMatchObject({ source_format: 'echo-facility-search', undated_events: ['formal_action', 'penalty'], facility_inactive: null });
    expect(completeness.inputs_missing).toContain('date_last_formal_action');
    index.close();
  });

  it('one build from both layouts: each facility\'s data_completeness names its own file\'s layout, as derived from its facts', async () => {
    const dir = tempDir('ingest');
    const exporter = writeFile(dir, 'exporter.csv', csvText([exporterRow({ REGISTRY_ID: '990000000501', FAC_INSPECTION_COUNT: '0', FAC_DATE_LAST_INSPECTION: '' })]));
    await runIngest([exporter, join(FIXTURES, 'echo_facility_search_sample.csv')], join(dir, 'both.sqlite'), { asOf: '2024-06-30' });
    const index = FacilityIndex.open(join(dir, 'both.sqlite'));
    const own = lookupFacility(index, '990000000501', 'free').data_completeness!;
    expect(own).toMatchObject({ source_format: 'echo-exporter', inputs_missing: [], no_inspection_in_5_years: true });
    expect(lookupFacility(index, '110012447566', 'free').data_completeness!.source_format).toBe('echo-facility-search');
    // what a lookup reads (stored at ingest, one shared value per distinct completeness) is what the facts say
    for (const id of ['990000000501', '110012447566', '110000764281', '110000607059']) {
      const detail = index.getDetail(id)!;
      const format = id.startsWith('99') ? 'echo-exporter' : 'echo-facility-search';
      expect(lookupFacility(index, id, 'starter').data_completeness).toEqual(dataCompleteness(factsOf(detail.score_inputs, '2024-06-30'), format));
    }
    index.close();
  });

  it('reads an older exporter layout by column name: reordered, an extra EJSCREEN_FLAG_US, compliance columns missing', async () => {
    const columns = ['FAC_NAME', 'EJSCREEN_FLAG_US', 'FAC_LONG', 'FAC_LAT', 'REGISTRY_ID', 'FAC_STATE', 'FAC_QTRS_WITH_NC', 'FAC_COMPLIANCE_STATUS'];
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'old.csv', csvText([{ ...exporterRow({ FAC_QTRS_WITH_NC: '3', FAC_COMPLIANCE_STATUS: 'Violation Identified' }), EJSCREEN_FLAG_US: 'Y' }], { columns }));
    const { summary } = await runIngest([file], join(dir, 'old.sqlite'), { asOf: '2020-01-01' });
    expect(summary.missingColumns['old.csv']).toContain('total_penalties');
    const row = FacilityIndex.open(join(dir, 'old.sqlite')).getDetail('990000000001')!;
    expect(row).toMatchObject({ fac_name: 'QUORVEX PLATING LLC', lat: 29.7569, lng: -95.3625 });
    expect(row.score_inputs).toMatchObject({ qtrs_with_nc: 3, compliance_status: 'Violation Identified', total_penalties_usd: null, date_last_penalty: null });
  });

  it('reads gzip input, a BOM and CRLF line ends, and quoted names with commas, quotes and newlines', async () => {
    const dir = tempDir('ingest');
    const text = '\uFEFF' + csvText([exporterRow({ FAC_NAME: 'ZORVEX "EAST", PLANT\r\nBUILDING 2' })], { eol: '\r\n' });
    const file = writeFile(dir, 'e.csv.gz', text, true);
    const { summary } = await runIngest([file], join(dir, 'g.sqlite'));
    expect(summary.info.row_counts.accepted).toBe(1);
    expect(FacilityIndex.open(join(dir, 'g.sqlite')).getSummary('990000000001')!.fac_name).toBe('ZORVEX "EAST", PLANT\r\nBUILDING 2');
  });

  it('takes the as-of date from --as-of, else from the last-inspection date plus days, never the wall clock', async () => {
    const dir = tempDir('ingest');
    const rows = Array.from({ length: 30 }, (_, i) => exporterRow({ REGISTRY_ID: String(990000000100 + i), FAC_DATE_LAST_INSPECTION: '10/01/2026', FAC_DAYS_LAST_INSPECTION: '30' }));
    const file = writeFile(dir, 'a.csv', csvText(rows));
    const inferred = await runIngest([file], join(dir, 'a.sqlite'));
    expect([inferred.summary.info.as_of, inferred.summary.asOfSource]).toEqual(['2026-10-31', 'inferred']);
    const given = await runIngest([file], join(dir, 'b.sqlite'), { asOf: '2025-01-15' });
    expect([given.summary.info.as_of, given.summary.asOfSource]).toEqual(['2025-01-15', 'flag']);
  });

  it('records sources with their SHA-256, counts, score version, and fictitious only when every ID starts with 99', async () => {
    const dir = tempDir('ingest');
    const text = csvText([exporterRow()]);
    const file = writeFile(dir, 'f.csv', text);
    const { summary } = await runIngest([file], join(dir, 'f.sqlite'));
    const sha = new Bun.CryptoHasher('sha256').update(text).digest('hex');
    expect(summary.info.sources).toEqual([{ name: 'f.csv', sha256: sha }]);
    expect(summary.info.fictitious).toBe(true);
    const real = writeFile(dir, 'r.csv', csvText([exporterRow(), exporterRow({ REGISTRY_ID: '110000607059' })]));
    expect((await runIngest([real], join(dir, 'r.sqlite'))).summary.info.fictitious).toBe(false);
    const info = FacilityIndex.open(join(dir, 'f.sqlite')).info;
    expect(info).toMatchObject({ facility_count: 1, as_of: '2026-10-31', fictitious: true });
    expect(info.score_version).toMatch(/\S/);
    expect(info.score_version).toBe(SCORE_VERSION);
  });
});
