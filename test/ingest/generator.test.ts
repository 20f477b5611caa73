import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { exporterLines } from '../../scripts/synth/generator';
import { SAMPLE } from '../../scripts/sample';

const lines = (seed: string, rows: number) => [...exporterLines({ seed, rows, asOf: '2026-10-31' })];
const col = (name: (typeof EXPORTER_COLUMNS_2025)[number]) => EXPORTER_COLUMNS_2025.indexOf(name);

describe('the fictitious dataset generator', () => {
  it('gives the same bytes for the same seed and different ones for another seed', () => {
    expect(lines('s1', 500).join('\n')).toBe(lines('s1', 500).join('\n'));
    expect(lines('s1', 500).join('\n')).not.toBe(lines('s2', 500).join('\n'));
  });

  it('a smaller file is a prefix of a larger one with the same seed (any size, same rows)', () => {
    expect(lines('s1', 1000).slice(0, 301)).toEqual(lines('s1', 300));
  });

  it('writes exactly the 2025 exporter header', () => {
    expect(lines('s1', 0)).toEqual([EXPORTER_COLUMNS_2025.join(',')]);
  });

  it('regenerates the committed sample byte for byte from its seed', () => {
    const committed = gunzipSync(readFileSync(SAMPLE.csv)).toString('utf8');
    const regenerated = [...exporterLines({ seed: SAMPLE.seed, rows: SAMPLE.rows, asOf: SAMPLE.asOf })].join('\r\n') + '\r\n';
    expect(committed.length).toBe(regenerated.length);
    expect(committed === regenerated).toBe(true);
  });

  it("every ID in the committed sample is 12 digits starting with 99, ascending and unique", () => {
    const rows = gunzipSync(readFileSync(SAMPLE.csv)).toString('utf8').trim().split('\r\n').slice(1);
    const ids = rows.map((r) => r.slice(0, r.indexOf(',')));
    expect(ids).toHaveLength(SAMPLE.rows);
    expect(ids.filter((id) => !/^99\d{10}$/.test(id))).toEqual([]);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });

  it('keeps the 3-year history consistent with quarters in violation, and dates before the as-of date', () => {
    for (const line of lines('consistency', 3000).slice(1)) {
      if (line.includes('"')) continue; // quoted names shift naive splitting; covered by the ingest tests
      const f = line.split(',');
      const history = f[col('FAC_3YR_COMPLIANCE_HISTORY')]!;
      if (history) expect([...history].filter((c) => c === 'V' || c === 'S').length).toBe(Number(f[col('FAC_QTRS_WITH_NC')]));
      const date = f[col('FAC_DATE_LAST_INSPECTION')]!;
      if (date) {
        const [m, d, y] = date.split('/').map(Number);
        expect(Date.UTC(y!, m! - 1, d!)).toBeLessThan(Date.UTC(2026, 9, 31));
        expect(Number(f[col('FAC_DAYS_LAST_INSPECTION')])).toBe(Math.round((Date.UTC(2026, 9, 31) - Date.UTC(y!, m! - 1, d!)) / 86_400_000));
      }
    }
  });

  it('aims at the documented proportions: about 0.7% in significant violation, most without penalties', () => {
    const rows = lines('proportions', 40_000).slice(1).map((l) => l.split(','));
    const snc = share(rows, (f) => f.includes('Significant Violation'));
    expect(snc).toBeGreaterThan(0.005);
    expect(snc).toBeLessThan(0.009);
    expect(share(rows, (f) => !['0', ''].includes(f[col('FAC_PENALTY_COUNT')]!))).toBeLessThan(0.03);
  });

  it('reaches Alaska (Aleutians on both sides of the antimeridian), Hawaii, Puerto Rico and Guam, and clusters in Houston, Chicago and LA', () => {
    const rows = lines('geo', 20_000).slice(1).map((l) => l.split(','));
    const states = new Set(rows.map((f) => f[col('FAC_STATE')]));
    for (const s of ['AK', 'HI', 'PR', 'GU']) expect(states.has(s)).toBe(true);
    const lngs = rows.filter((f) => f[col('FAC_STATE')] === 'AK').map((f) => Number(f[col('FAC_LONG')]));
    expect(lngs.some((x) => x < -165)).toBe(true);
    expect(lngs.some((x) => x > 170)).toBe(true); // Shemya, east of the antimeridian
    const near = (lat: number, lng: number) => share(rows, (f) => Math.hypot(Number(f[col('FAC_LAT')]) - lat, Number(f[col('FAC_LONG')]) - lng) < 0.5);
    // each metro holds far more than its ~0.1% share of the land area
    expect(near(29.76, -95.37)).toBeGreaterThan(0.01);
    expect(near(41.88, -87.63)).toBeGreaterThan(0.01);
    expect(near(34.05, -118.24)).toBeGreaterThan(0.01);
  });
});

describe('the generator writes the exporter columns with EPA\'s meaning', () => {
  // quoted names would shift a naive split: keep the rows without quotes (the ingest tests cover quoting)
  const rows = lines('semantics', 20_000).slice(1).filter((l) => !l.includes('"')).map((l) => l.split(','));
  const at = (f: string[], name: (typeof EXPORTER_COLUMNS_2025)[number]) => f[col(name)]!;
  const AS_OF_MS = Date.UTC(2026, 9, 31);
  const daysBack = (mdy: string) => {
    const [m, d, y] = mdy.split('/').map(Number);
    return (AS_OF_MS - Date.UTC(y!, m! - 1, d!)) / 86_400_000;
  };

  it.each([
    ['AIR_IDS', 'AIR_FLAG', /^[A-Z]{2}\d{16}$/],
    ['NPDES_IDS', 'NPDES_FLAG', /^[A-Z]{2}(R[0-9A-Z]{6}|\d{7})$/],
    ['RCRA_IDS', 'RCRA_FLAG', /^[A-Z]{2}[DR]\d{9}$/],
    ['SDWA_IDS', 'SDWIS_FLAG', /^[A-Z]{2}\d{7}$/],
    ['TRI_IDS', 'TRI_FLAG', /^\d{5}[A-Z]{5}[0-9A-Z]{5}$/],
  ] as const)('%s holds IDs in the program\'s format, some rows two joined by a space, exactly where %s is Y', (ids, flag, format) => {
    let several = 0;
    for (const f of rows) {
      const cell = at(f, ids);
      expect(cell !== '').toBe(at(f, flag) === 'Y');
      if (cell === '') continue;
      const each = cell.split(' ');
      for (const id of each) expect(id).toMatch(format);
      if (each.length > 1) several++;
    }
    expect(several).toBeGreaterThan(0);
  });

  it('FAC_PROGRAMS_WITH_SNC is a count: above 0 exactly on the SNC rows, 0 (or now and then blank) elsewhere', () => {
    for (const f of rows) {
      const cell = at(f, 'FAC_PROGRAMS_WITH_SNC');
      expect(cell).toMatch(/^\d?$/);
      expect(Number(cell) > 0).toBe(at(f, 'FAC_COMPLIANCE_STATUS') === 'Significant Violation');
    }
    expect(share(rows, (f) => at(f, 'FAC_PROGRAMS_WITH_SNC') === '0')).toBeGreaterThan(0.9);
    expect(share(rows, (f) => at(f, 'FAC_PROGRAMS_WITH_SNC') === '')).toBeGreaterThan(0.01);
  });

  it('some rows carry a latest action or penalty older than the 5-year window, with a 5-year count of 0', () => {
    const old = (count: Parameters<typeof at>[1], date: Parameters<typeof at>[1]) =>
      rows.filter((f) => at(f, date) !== '' && daysBack(at(f, date)) > 1826);
    for (const [count, date] of [['FAC_FORMAL_ACTION_COUNT', 'FAC_DATE_LAST_FORMAL_ACTION'], ['FAC_PENALTY_COUNT', 'FAC_DATE_LAST_PENALTY'], ['FAC_INFORMAL_COUNT', 'FAC_DATE_LAST_INFORMAL_ACTION']] as const) {
      const older = old(count, date);
      expect(older.length).toBeGreaterThan(20);
      for (const f of older) expect(['', '0']).toContain(at(f, count));
    }
    // a dated event in the window always comes with its count
    for (const f of rows) if (at(f, 'FAC_DATE_LAST_FORMAL_ACTION') !== '' && daysBack(at(f, 'FAC_DATE_LAST_FORMAL_ACTION')) <= 1826) expect(Number(at(f, 'FAC_FORMAL_ACTION_COUNT'))).toBeGreaterThan(0);
  });

  it('writes zero counts both as 0 and as blank', () => {
    expect(share(rows, (f) => at(f, 'FAC_FORMAL_ACTION_COUNT') === '0')).toBeGreaterThan(0.5);
    expect(share(rows, (f) => at(f, 'FAC_FORMAL_ACTION_COUNT') === '')).toBeGreaterThan(0.2);
  });

  it("writes CWA's history as 13 quarters, its quarter count over all 13", () => {
    const cwa = rows.filter((f) => at(f, 'NPDES_FLAG') === 'Y');
    expect(cwa.length).toBeGreaterThan(100);
    for (const f of cwa) {
      const h = at(f, 'CWA_13QTRS_COMPL_HISTORY');
      expect(h).toMatch(/^[_VSU]{13}$/);
      expect(Number(at(f, 'CWA_QTRS_WITH_NC'))).toBe([...h].filter((q) => q === 'V' || q === 'S').length);
    }
    expect(cwa.some((f) => at(f, 'CWA_13QTRS_COMPL_HISTORY').startsWith('V'))).toBe(true);
  });

  it('leaves rows without coordinates out by default, and writes them on request', () => {
    expect(rows.every((f) => at(f, 'FAC_LAT') !== '' && at(f, 'FAC_LONG') !== '')).toBe(true);
    const some = [...exporterLines({ seed: 'semantics', rows: 5000, asOf: '2026-10-31', missingCoordinatesRate: 0.01 })].slice(1).filter((l) => !l.includes('"')).map((l) => l.split(','));
    const missing = some.filter((f) => at(f, 'FAC_LAT') === '' && at(f, 'FAC_LONG') === '');
    expect(missing.length).toBeGreaterThan(20);
    expect(missing.length).toBeLessThan(100);
  });
});

function share(rows: string[][], pred: (f: string[]) => boolean): number {
  return rows.filter(pred).length / rows.length;
}
