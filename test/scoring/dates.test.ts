import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { asOfDay, dayNumber, monthsBefore } from '../../src/scoring/dates';

describe('score dates', () => {
  it.each([
    ['1970-01-01', 0],
    ['1970-01-02', 1],
    ['2000-03-01', 11017],
    ['03/01/2000', 11017],
    ['3/1/2000', 11017],
    ['2024-02-29', 19782],
    ['2024-02-30', null],
    ['2023-02-29', null],
    ['13/01/2020', null],
    ['', null],
    ['not a date', null],
    [null, null],
  ] as const)('dayNumber(%p) is %p', (text, day) => {
    expect(dayNumber(text)).toBe(day);
  });

  it('measures ages in average months and never negative', () => {
    const asOf = asOfDay('2025-06-30');
    expect(monthsBefore(asOf, dayNumber('2024-06-30')!)).toBeCloseTo(365 / (365.25 / 12), 9);
    expect(monthsBefore(asOf, dayNumber('2025-06-30')!)).toBe(0);
    expect(monthsBefore(asOf, dayNumber('2026-06-30')!)).toBe(0);
  });

  it.each(['2025-6-30', '06/30/2025', '2025-06-30T00:00:00Z', ' 2025-06-30'])('refuses %p as an as-of date (only YYYY-MM-DD)', (s) => {
    expect(() => asOfDay(s)).toThrow(RangeError);
  });
});

describe('score date arithmetic', () => {
  it('agrees with Date.UTC on every day from 1900 to 2100', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1) / 86_400_000, max: Date.UTC(2100, 11, 31) / 86_400_000 }), (day) => {
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        const [y, m, d] = iso.split('-');
        return dayNumber(iso) === day && dayNumber(`${m}/${d}/${y}`) === day;
      }),
      { numRuns: 2000 },
    );
  });
});
