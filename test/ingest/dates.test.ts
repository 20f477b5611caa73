import { describe, expect, it } from 'bun:test';
import { Bad, parseDate } from '../../src/ingest/values';

describe('ECHO date cells', () => {
  it.each([
    ['01/02/2025', '2025-01-02'],
    ['1/2/2025', '2025-01-02'],
    ['2025-01-02', '2025-01-02'],
    [' 12/31/1900 ', '1900-12-31'],
    ['02/29/2024', '2024-02-29'],
  ])('%p reads as %p', (raw, iso) => {
    expect(parseDate(raw, 'FAC_DATE_LAST_PENALTY')).toBe(iso);
  });

  it.each(['', 'NA', 'N/A'])('blank %p is no date, not an error', (raw) => {
    expect(parseDate(raw, 'FAC_DATE_LAST_PENALTY')).toBeNull();
  });

  it.each(['02/30/2025', '02/29/2025', '13/01/2025', '01/01/0001', '12/31/1899', '2025-1-2', 'yesterday', '01-02-2025'])(
    '%p is a bad date naming its column',
    (raw) => {
      const r = parseDate(raw, 'FAC_DATE_LAST_PENALTY');
      expect(r).toBeInstanceOf(Bad);
      expect((r as Bad).detail).toContain('FAC_DATE_LAST_PENALTY');
    },
  );
});
