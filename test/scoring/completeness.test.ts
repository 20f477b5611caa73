import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { completenessKey, completenessNotes, dataCompleteness } from '../../src/scoring/completeness';
import { factsOf } from '../../src/scoring/facts';
import type { ScoreInputs } from '../../src/scoring/model';
import { CLEAN_INPUTS, inputsWith } from '../helpers';
import { facilitySearchArb, oddScenarioArb, scenarioArb } from './arbitraries';

const AS_OF = '2025-06-30';
const of = (i: ScoreInputs, format: 'echo-exporter' | 'echo-facility-search' = 'echo-exporter') => dataCompleteness(factsOf(i, AS_OF), format);

describe('data_completeness, from the facts the score uses', () => {
  it('a complete exporter row: every input present, nothing undated, old or unknown', () => {
    const c = of(CLEAN_INPUTS);
    expect(c).toEqual({
      source_format: 'echo-exporter',
      inputs_missing: [],
      undated_events: [],
      events_before_window: [],
      no_inspection_in_5_years: false,
      facility_inactive: false,
      unknown_quarters: 0,
      sufficient: true,
      insufficient_reasons: [],
    });
  });

  describe('sufficient: enough data to judge', () => {
    const NONE = { inspection_count: 0, date_last_inspection: null };
    it.each([
      ['no inspection in 5 years and 12 unknown quarters', inputsWith({ ...NONE, history: 'UUUUUUUUUUUU' }), ['no_inspection_or_known_quarter']],
      ['no inspection, no history and no status', inputsWith({ ...NONE, history: '', compliance_status: '' }), ['no_inspection_or_known_quarter']],
      ['an inactive facility, whatever its record', inputsWith({ facility_active: false }), ['inactive']],
      ['both', inputsWith({ ...NONE, history: '', compliance_status: '', facility_active: false }), ['inactive', 'no_inspection_or_known_quarter']],
    ])('is false for %s, with the reasons', (_name, inputs, reasons) => {
      const c = of(inputs);
      expect(c.sufficient).toBe(false);
      expect(c.insufficient_reasons as string[]).toEqual(reasons);
      expect(completenessNotes(c)[0]).toStartWith('Not enough data to judge this facility (');
    });

    it.each([
      ['no inspection but 12 known quarters', inputsWith({ ...NONE })],
      ['no inspection, one unknown quarter', inputsWith({ ...NONE, history: 'UUUUUUUUUUU_' })],
      ['an inspection and 12 unknown quarters', inputsWith({ history: 'UUUUUUUUUUUU' })],
      ['no inspection and no history, but "No Violation Identified" now', inputsWith({ ...NONE, history: '' })],
    ])('is true for %s', (_name, inputs) => {
      expect(of(inputs).sufficient).toBe(true);
    });
  });

  it('a facility-search row: the absent columns, and its undated formal action and penalty', () => {
    const fs = inputsWith({
      history: null, programs_in_snc: null, penalty_count: null, date_last_formal_action: null, facility_active: null, federal_case_ids: null,
      formal_action_count: 1, total_penalties_usd: 4255, inspection_count: 4, date_last_inspection: null,
      not_reported: ['history', 'programs_in_snc', 'penalty_count', 'date_last_formal_action', 'date_last_inspection', 'federal_case_ids', 'facility_active'],
    });
    const c = of(fs, 'echo-facility-search');
    expect(c.source_format).toBe('echo-facility-search');
    expect(c.inputs_missing).toEqual(['history', 'programs_in_snc', 'penalty_count', 'date_last_formal_action', 'date_last_inspection', 'federal_case_ids', 'facility_active']);
    // only the absent inputs are named: a column the download has (the status) is not
    expect(c.inputs_missing).not.toContain('compliance_status');
    expect(c.undated_events).toEqual(['formal_action', 'penalty']);
    expect([c.facility_inactive, c.no_inspection_in_5_years]).toEqual([null, false]);
  });

  it('names events whose latest date is older than the window', () => {
    expect(of(inputsWith({ date_last_formal_action: '2015-03-15', date_last_penalty: '2012-05-01', last_penalty_usd: 1e6 })).events_before_window).toEqual(['formal_action', 'penalty']);
  });

  it('flags no inspection in 5 years (count 0, or a last inspection before the window) and an inactive facility', () => {
    expect(of(inputsWith({ inspection_count: 0, date_last_inspection: '2018-01-01' })).no_inspection_in_5_years).toBe(true);
    expect(of(inputsWith({ inspection_count: null, not_reported: ['inspection_count'] })).no_inspection_in_5_years).toBeNull();
    expect(of(inputsWith({ facility_active: false })).facility_inactive).toBe(true);
  });

  it('counts the U quarters of the history', () => {
    expect(of(inputsWith({ history: 'UU__V_____U_', qtrs_with_nc: 1 })).unknown_quarters).toBe(3);
  });

  it('reads as plain notes: none for a complete row, each gap named otherwise', () => {
    expect(completenessNotes(of(CLEAN_INPUTS))).toEqual([]);
    expect(completenessNotes(of(inputsWith({ inspection_count: 0, date_last_inspection: null, facility_active: false, history: 'UU__V_____U_', qtrs_with_nc: 1 })))).toEqual([
      'Not enough data to judge this facility (inactive): its score does not rank it.',
      'No inspection in the last 5 years.',
      'Inactive facility: no active permit or program record.',
      '3 quarters of undetermined status (unknown, not clean).',
    ]);
    expect(completenessNotes(of(inputsWith({ date_last_penalty: '2012-05-01', last_penalty_usd: 1e6, inspection_count: null, not_reported: ['inspection_count'] })))).toEqual([
      'Older than 5 years, not counted: penalty.',
      'Not reported by the source: inspection_count.',
    ]);
  });
});

describe('completenessKey: the memo key ingest stores each distinct value under', () => {
  // Ingest builds a facility's data_completeness only for a key it has not seen: two rows with one
  // key must have one value, or a row would be served another row's completeness.
  it('two facts with the same key have the same data_completeness (well-formed, facility-search and odd inputs)', () => {
    const seen = new Map<string, string>();
    const scenario = fc.oneof(scenarioArb, facilitySearchArb, oddScenarioArb);
    fc.assert(
      fc.property(scenario, fc.constantFrom('echo-exporter' as const, 'echo-facility-search' as const), ({ inputs, asOf }, format) => {
        const f = factsOf(inputs as ScoreInputs, asOf);
        const key = completenessKey(f, format);
        const value = JSON.stringify(dataCompleteness(f, format));
        const before = seen.get(key);
        if (before === undefined) seen.set(key, value);
        else expect(value).toBe(before);
      }),
      { numRuns: 3000 },
    );
    // the runs met many keys more than once, so the check above compared values
    expect(seen.size).toBeGreaterThan(10);
    expect(seen.size).toBeLessThan(3000);
  });

  it('differs when any one thing the value reads differs', () => {
    const base = factsOf(CLEAN_INPUTS, AS_OF);
    const variants = [
      inputsWith({ inspection_count: 0, date_last_inspection: null }),
      inputsWith({ facility_active: false }),
      inputsWith({ history: 'U___________' }),
      inputsWith({ date_last_formal_action: '2015-03-15' }),
      inputsWith({ not_reported: ['penalty_count'] }),
      inputsWith({ inspection_count: 0, date_last_inspection: null, history: '', compliance_status: '' }),
    ];
    const keys = new Set([completenessKey(base, 'echo-exporter'), completenessKey(base, 'echo-facility-search'), ...variants.map((i) => completenessKey(factsOf(i, AS_OF), 'echo-exporter'))]);
    expect(keys.size).toBe(2 + variants.length);
  });
});
