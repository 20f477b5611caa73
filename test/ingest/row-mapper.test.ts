import { describe, expect, it } from 'bun:test';
import { readHeader } from '../../src/ingest/columns';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { mapRow, type MappedRow, type Rejection } from '../../src/ingest/row-mapper';
import { significantNow } from '../../src/scoring/facts';
import { exporterRow } from './support';
import { RecordCells } from '../../src/ingest/record-cells';

const header = readHeader([...EXPORTER_COLUMNS_2025]);
const fields = (overrides: Parameters<typeof exporterRow>[0]) => {
  const row = exporterRow(overrides) as Record<string, string | undefined>;
  return EXPORTER_COLUMNS_2025.map((c) => row[c] ?? '');
};
const map = (overrides: Parameters<typeof exporterRow>[0]) => mapRow(RecordCells.of(fields(overrides)), header);
const mapped = (overrides: Parameters<typeof exporterRow>[0]) => map(overrides) as MappedRow;

describe('mapping an exporter row', () => {
  it.each([
    ['missing_id', { REGISTRY_ID: '' }],
    ['non_numeric_id', { REGISTRY_ID: '1.10001E+11' }],
    ['bad_date', { FAC_DATE_LAST_PENALTY: '13/01/2025' }],
    ['bad_date', { FAC_DATE_LAST_FORMAL_ACTION: '02/30/2025' }],
    ['bad_date', { FAC_DATE_LAST_INSPECTION: 'last spring' }],
    ['bad_number', { FAC_INSPECTION_COUNT: 'several' }],
    ['bad_number', { FAC_QTRS_WITH_NC: '13' }],
    ['bad_number', { FAC_TOTAL_PENALTIES: '-5' }],
    ['bad_history', { FAC_3YR_COMPLIANCE_HISTORY: '___X________' }],
  ] as const)('rejects as %s: %o', (reason, overrides) => {
    expect((map(overrides) as Rejection).reason).toBe(reason);
  });

  it.each([
    ['blank', { FAC_LAT: '' }],
    ['NA', { FAC_LONG: 'NA' }],
    ['out of range', { FAC_LAT: '91.5' }],
    ['out of range', { FAC_LONG: '-181' }],
    ['not a number', { FAC_LAT: 'north' }],
    ['the (0, 0) placeholder', { FAC_LAT: '0', FAC_LONG: '0.0' }],
  ] as const)('a row whose coordinates are %s is a facility without a location, not a rejection: %o', (_why, overrides) => {
    const m = map(overrides) as MappedRow;
    expect('reason' in m).toBe(false);
    expect(m.registry_id).toBe('990000000001');
    expect([m.lat, m.lng]).toEqual([null, null]);
  });

  it('keeps the raw ID of a rejected row so the rejects file can name it', () => {
    expect((map({ FAC_INSPECTION_COUNT: 'several' }) as Rejection).registry_id).toBe('990000000001');
  });

  it('recovers a spreadsheet-mangled ID from the DFR URL fid=', () => {
    const m = mapped({ REGISTRY_ID: '9.9E+11', DFR_URL: 'https://echo.epa.gov/detailed-facility-report?fid=990000000777' });
    expect(m.registry_id).toBe('990000000777');
  });

  it.each(['', 'NA', 'N/A', ' '])('reads a blank numeric (%p) as zero', (blank) => {
    const m = mapped({ FAC_INSPECTION_COUNT: blank, FAC_TOTAL_PENALTIES: blank, FAC_QTRS_WITH_NC: blank });
    expect([m.inputs.inspection_count, m.inputs.total_penalties_usd, m.inputs.qtrs_with_nc]).toEqual([0, 0, 0]);
  });

  it('reads dollar amounts with $ and thousands separators', () => {
    expect(mapped({ FAC_TOTAL_PENALTIES: '$1,234,567.50' }).inputs.total_penalties_usd).toBe(1234567.5);
  });

  it('turns MM/DD/YYYY dates (with or without leading zeros) into ISO dates, and blanks into null', () => {
    const m = mapped({ FAC_DATE_LAST_PENALTY: '3/7/2024', FAC_DATE_LAST_FORMAL_ACTION: '12/31/2023', FAC_DATE_LAST_INFORMAL_ACTION: '' });
    expect([m.inputs.date_last_penalty, m.inputs.date_last_formal_action, m.inputs.date_last_informal_action]).toEqual(['2024-03-07', '2023-12-31', null]);
  });

  it.each([
    [{ FAC_COMPLIANCE_STATUS: 'Significant Violation' }, true],
    [{ FAC_PROGRAMS_WITH_SNC: '1' }, true],
    [{ FAC_PROGRAMS_WITH_SNC: '0' }, false],
    [{ FAC_PROGRAMS_WITH_SNC: '' }, false],
    [{ FAC_SNC_FLG: 'Y' }, true],
    [{ FAC_COMPLIANCE_STATUS: 'Violation Identified', FAC_SNC_FLG: 'N' }, false],
  ] as const)('reads significant violation from status, the count of programs in SNC or the flag: %o -> %p', (overrides, expected) => {
    expect(significantNow(mapped(overrides).inputs)).toBe(expected);
  });

  it('reads FAC_PROGRAMS_WITH_SNC as the count EPA publishes, and a list of program names as a bad number', () => {
    expect([mapped({ FAC_PROGRAMS_WITH_SNC: '2' }).inputs.programs_in_snc, mapped({ FAC_PROGRAMS_WITH_SNC: '' }).inputs.programs_in_snc]).toEqual([2, 0]);
    expect((map({ FAC_PROGRAMS_WITH_SNC: 'CWA' }) as Rejection).reason).toBe('bad_number');
  });

  it('reads FEC_CASE_IDS as distinct case numbers and FAC_ACTIVE_FLAG as Y/N', () => {
    const m = mapped({ FEC_CASE_IDS: '06-2021-0042 04-2019-1234, 06-2021-0042', FAC_ACTIVE_FLAG: 'N' });
    expect([m.inputs.federal_case_ids, m.inputs.facility_active]).toEqual([['06-2021-0042', '04-2019-1234'], false]);
    expect([mapped({}).inputs.federal_case_ids, mapped({}).inputs.facility_active]).toEqual([[], null]);
  });

  it("keeps a program's quarterly history (CWA's 13 quarters whole) and CWA_3_YR_QNCR_CODES, empty or filled", () => {
    const m = mapped({ NPDES_FLAG: 'Y', CWA_13QTRS_COMPL_HISTORY: 'v___________S', CWA_3_YR_QNCR_CODES: '1112', AIR_FLAG: 'Y', CAA_3YR_COMPL_QTRS_HISTORY: '____________' });
    expect([m.inputs.programs.cwa?.history, m.inputs.programs.cwa?.qncr_codes, m.inputs.programs.caa?.history, m.inputs.programs.caa?.qncr_codes]).toEqual(['V___________S', '1112', '____________', null]);
    expect(mapped({ NPDES_FLAG: 'Y' }).inputs.programs.cwa?.qncr_codes).toBe('');
  });

  it('takes the first NAICS code of the list and upper-cases the state', () => {
    const m = mapped({ FAC_NAICS_CODES: '325110 424690', FAC_STATE: 'tx' });
    expect([m.fac_naics, m.fac_state]).toEqual(['325110', 'TX']);
  });
});

describe('mapping fast paths (cells without trim, memoised dates) read the same as trim and a fresh parse', () => {
  it('trims cells whose ends are tabs, no-break or other Unicode spaces, and keeps ASCII-bounded cells as they are', () => {
    const m = mapped({ FAC_NAME: '\u00a0ACME\u3000', FAC_CITY: '\tSPRINGFIELD ', FAC_STATE: ' tx\u2028', FAC_STREET: 'A  B', FAC_INSPECTION_COUNT: '\u20027\ufeff' });
    expect([m.fac_name, m.fac_city, m.fac_state, m.fac_street, m.inputs.inspection_count]).toEqual(['ACME', 'SPRINGFIELD', 'TX', 'A  B', 7]);
  });

  it('reports the first bad value in column order, numbers before dates', () => {
    const r = map({ FAC_TOTAL_PENALTIES: 'lots', FAC_INSPECTION_COUNT: 'several', FAC_DATE_LAST_PENALTY: '02/30/2025' }) as Rejection;
    expect([r.reason, r.detail]).toEqual(['bad_number', 'inspection_count: "several" is not a non-negative number']);
  });

  it('rejects a bad date every time it is seen, with the column it is in (a date text is parsed once)', () => {
    const a = map({ FAC_DATE_LAST_PENALTY: '02/30/2025' }) as Rejection;
    const b = map({ FAC_DATE_LAST_INSPECTION: '02/30/2025' }) as Rejection;
    expect([a.reason, a.detail, b.reason, b.detail]).toEqual([
      'bad_date', 'date_last_penalty: "02/30/2025" is not a date (MM/DD/YYYY)',
      'bad_date', 'date_last_inspection: "02/30/2025" is not a date (MM/DD/YYYY)',
    ]);
    expect(mapped({ FAC_DATE_LAST_PENALTY: '3/7/2024' }).inputs.date_last_penalty).toBe('2024-03-07');
    expect(mapped({ FAC_DATE_LAST_PENALTY: '3/7/2024' }).inputs.date_last_penalty).toBe('2024-03-07');
  });

  it('keeps the leading digits of the NAICS codes, and none when the cell does not start with a digit', () => {
    expect([mapped({ FAC_NAICS_CODES: '325110 324110' }).fac_naics, mapped({ FAC_NAICS_CODES: '211111' }).fac_naics, mapped({ FAC_NAICS_CODES: 'x1' }).fac_naics]).toEqual(['325110', '211111', '']);
  });
});

describe('reading a header', () => {
  it('finds the same fields in exporter (UPPER_SNAKE) and facility-search (CamelCase) spellings', () => {
    const a = readHeader(['REGISTRY_ID', 'FAC_LAT', 'FAC_LONG', 'FAC_QTRS_WITH_NC']);
    const b = readHeader(['RegistryID', 'FacLat', 'FacLong', 'FacQtrsWithNC']);
    expect([a.format, b.format]).toEqual(['echo-exporter', 'echo-facility-search']);
    expect(a.columns.qtrs_with_nc).toBe(3);
    expect(b.columns.qtrs_with_nc).toBe(3);
  });

  it('refuses a file with no ID or coordinates column, naming what is missing', () => {
    expect(() => readHeader(['name', 'address', 'city'])).toThrow(/not an ECHO facility file: no registryid or dfrurl/);
  });

  it('lists the score columns a layout lacks', () => {
    expect(readHeader(['REGISTRY_ID', 'FAC_LAT', 'FAC_LONG', 'FAC_QTRS_WITH_NC']).missing).toContain('total_penalties');
  });
});

describe('how well the coordinates place the facility', () => {
  it('reads FAC_ACCURACY_METERS as metres and FAC_COLLECTION_METHOD as EPA\'s words, upper case', () => {
    expect(mapped({ FAC_ACCURACY_METERS: '3000', FAC_COLLECTION_METHOD: 'zip code-centroid' })).toMatchObject({ loc_accuracy_m: 3000, loc_method: 'ZIP CODE-CENTROID' });
  });

  it.each([['blank', ''], ['not a number', 'about 30'], ['zero', '0']] as const)('an accuracy that is %s is not stated (null), never a rejection', (_why, v) => {
    expect(mapped({ FAC_ACCURACY_METERS: v, FAC_COLLECTION_METHOD: '' })).toMatchObject({ loc_accuracy_m: null, loc_method: '' });
  });

  it('a facility without coordinates has no location quality, whatever the columns say', () => {
    expect(mapped({ FAC_LAT: '', FAC_ACCURACY_METERS: '25', FAC_COLLECTION_METHOD: 'INTERPOLATION-PHOTO' })).toMatchObject({ lat: null, loc_accuracy_m: null, loc_method: '' });
  });
});
