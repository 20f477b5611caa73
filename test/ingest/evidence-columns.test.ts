import { describe, expect, it } from 'bun:test';
import { storedEvidenceJson } from '../../src/index/evidence';
import { readHeader } from '../../src/ingest/columns';
import { evidenceOf } from '../../src/ingest/evidence-columns';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { RecordCells } from '../../src/ingest/record-cells';

const header = readHeader([...EXPORTER_COLUMNS_2025]);
const evidence = (cells: Record<string, string>) => evidenceOf(RecordCells.of(EXPORTER_COLUMNS_2025.map((c) => cells[c] ?? '')), header.evidence);

describe('reading the evidence columns of an exporter row', () => {
  it('reads blank cells of reported columns as the empty values, and stores nothing for them', () => {
    const e = evidence({});
    expect(e).toEqual({
      rcra_universes: [], caa_permit_types: '', tri_flag: false, tri_on_site_releases_lbs: null, tri_releases_transfers_lbs: null,
      ghg_co2_tonnes: null, caa_history: '', cwa_history: '', rcra_history: '', fec_case_ids: [],
      air_ids: [], npdes_ids: [], rcra_ids: [], sdwa_ids: [], tri_ids: [],
      last_inspection_epa: null, last_inspection_state: null, last_formal_action_epa: null, last_formal_action_state: null,
      last_informal_action_epa: null, last_informal_action_state: null,
    });
    expect(storedEvidenceJson(e)).toBe('');
  });

  it('reads the program IDs of a cell of several, joined by spaces as the exporter joins them, each once, and stores them', () => {
    const e = evidence({ AIR_IDS: 'TX0000004820100001 TX0000004820100002', NPDES_IDS: 'TXR990101', RCRA_IDS: ' TXD990000101  TXD990000101 ', SDWA_IDS: '', TRI_IDS: '77002SMPLF99101' });
    expect([e.air_ids, e.npdes_ids, e.rcra_ids, e.sdwa_ids, e.tri_ids]).toEqual([['TX0000004820100001', 'TX0000004820100002'], ['TXR990101'], ['TXD990000101'], [], ['77002SMPLF99101']]);
    expect(JSON.parse(storedEvidenceJson(e)).air_ids).toEqual(['TX0000004820100001', 'TX0000004820100002']);
  });

  it.each([
    ['____________', '____________'],
    ['_____________', '_____________'],
    ['__vs_u______', '__VS_U______'],
    [' ___V________ ', '___V________'],
    ['______________', null],
    ['___X________', null],
  ])('a quarter history %p reads as %p (upper-cased, up to 13 of _ V S U, else null)', (cell, read) => {
    const e = evidence({ CAA_3YR_COMPL_QTRS_HISTORY: cell, CWA_13QTRS_COMPL_HISTORY: cell, RCRA_3YR_COMPL_QTRS_HISTORY: cell });
    expect([e.caa_history, e.cwa_history, e.rcra_history]).toEqual([read, read, read]);
  });

  it.each([
    ['Large Quantity Generator', ['LQG']],
    ['Very Small Quantity Generator', ['VSQG']],
    ['Small Quantity Generator', ['SQG']],
    ['tsdf, lqg; Transporter', ['TSDF', 'LQG', 'TRANSPORTER']],
    ['Other', []],
  ])('RCRA_PERMIT_TYPES %p reads as %p, the same for every row that has it', (cell, codes) => {
    const first = evidence({ RCRA_PERMIT_TYPES: cell }).rcra_universes;
    const again = evidence({ RCRA_PERMIT_TYPES: cell }).rcra_universes;
    expect(first).toEqual(codes);
    expect(again).toEqual(codes);
  });

  it('reads TRI, GHG, case numbers and the EPA/state dates, lenient where a value cannot be read', () => {
    const e = evidence({
      TRI_FLAG: 'y', TRI_ON_SITE_RELEASES: '1,250', TRI_RELEASES_TRANSFERS: 'NA', GHG_CO2_RELEASES: 'lots',
      FEC_CASE_IDS: ' 99-001, 99-002;99-001  99-003 ', CAA_PERMIT_TYPES: ' Major ',
      FAC_DATE_LAST_INSPECTION_EPA: '03/04/2025', FAC_DATE_LAST_INSPECTION_STATE: '2024-12-31',
      FAC_DATE_LAST_FORMAL_ACT_EPA: '02/30/2025', FAC_DATE_LAST_INFORMAL_ACT_ST: 'N/A',
    });
    expect(e).toMatchObject({
      tri_flag: true, tri_on_site_releases_lbs: 1250, tri_releases_transfers_lbs: 0, ghg_co2_tonnes: null,
      fec_case_ids: ['99-001', '99-002', '99-003'], caa_permit_types: 'Major',
      last_inspection_epa: '2025-03-04', last_inspection_state: '2024-12-31', last_formal_action_epa: null, last_informal_action_state: null,
    });
    expect(JSON.parse(storedEvidenceJson(e))).toEqual({
      // an NA amount reads as 0, which is a value (not the empty null) and so is stored
      caa_permit_types: 'Major', tri_flag: true, tri_on_site_releases_lbs: 1250, tri_releases_transfers_lbs: 0, fec_case_ids: ['99-001', '99-002', '99-003'],
      last_inspection_epa: '2025-03-04', last_inspection_state: '2024-12-31',
    });
  });

  it('reads null for every key a file has no column for', () => {
    const e = evidenceOf(RecordCells.of(['990000000001']), readHeader(['REGISTRY_ID', 'FAC_LAT', 'FAC_LONG']).evidence);
    expect(Object.values(e).every((v) => v === null)).toBe(true);
  });
});
