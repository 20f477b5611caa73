import { describe, expect, it } from 'bun:test';
import { parse } from 'csv-parse/sync';
import { flattenItem, toCsv } from '../../src/exports/csv';

describe('CSV columns come from the items themselves', () => {
  it('flattens nested objects with dotted names at any depth, lists as plain text joined with "; ", null as empty', () => {
    expect(flattenItem({ id: '1', peers: { count: 3, worst: { id: '2', score: 40 } }, tags: ['a', 'b'], note: null })).toEqual({
      id: '1',
      'peers.count': 3,
      'peers.worst.id': '2',
      'peers.worst.score': 40,
      tags: 'a; b',
      note: null,
    });
  });

  it('a field added to some items becomes a column, empty where an item lacks it', () => {
    const text = toCsv([{ registry_id: '1', overall_score: 50 }, { registry_id: '2', overall_score: 60, score_change: { delta: -5 } }]);
    expect(text).toBe('registry_id,overall_score,score_change.delta\r\n1,50,\r\n2,60,-5\r\n');
  });

  it('a field null in one item and an object in another gives only the dotted columns, empty for the null item', () => {
    const csv = toCsv([{ id: '1', score_change: null }, { id: '2', score_change: { previous_score: 70, previous_as_of: '2026-10-31' } }]);
    expect(csv).toBe('id,score_change.previous_score,score_change.previous_as_of\r\n1,,\r\n2,70,2026-10-31\r\n');
  });

  it('quotes commas, quotes and line breaks (RFC 4180) so csv-parse reads every value back', () => {
    const names = ['A, B', 'SAY "HI"', 'LINE\nBREAK', 'CR\r\nLF', 'PLAIN', 'ÉTÉ ÜNICODE 東京'];
    const text = toCsv(names.map((fac_name, i) => ({ registry_id: String(i), fac_name })));
    expect((parse(text, { columns: true }) as { fac_name: string }[]).map((r) => r.fac_name)).toEqual(names);
  });

  it('guards text a spreadsheet would run as a formula, never numbers', () => {
    const text = toCsv([{ fac_name: '=HYPERLINK("x")', lng: -85.9, other: '+1', at: '@SUM(A1)' }]);
    expect(parse(text, { columns: true })).toEqual([{ fac_name: `'=HYPERLINK("x")`, lng: '-85.9', other: "'+1", at: "'@SUM(A1)" }]);
  });

  it('an empty list is the header of the given columns', () => {
    expect(toCsv([], ['registry_id', 'fac_name'])).toBe('registry_id,fac_name\r\n');
  });
});
