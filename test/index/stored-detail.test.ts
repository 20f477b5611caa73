import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { ReasonDecoder, ReasonTemplates } from '../../src/index/explanation-codec';
import { EXPLANATION_AT, encodeDetail, parseDetail, programsOfDetail } from '../../src/index/facility-detail';
import { ProgramRecords, programsOfArray, sharedRecordsOf } from '../../src/index/program-codec';
import { explainComponents, explanationLines } from '../../src/scoring/explain';
import { type ProgramsInputs, type ScoreExplanation } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { programsArb, scenarioArb } from '../scoring/arbitraries';

/** Stores four sentences (one explanation) through a fresh template set and reads them back as a lookup does. */
function roundTrip(reasons: string[]): string[] {
  const templates = new ReasonTemplates();
  const stored: (string | number)[] = [];
  for (const r of reasons) templates.encode(r, stored);
  return Object.values(new ReasonDecoder(templates.drain()).explanation(stored, 0));
}

const sentence = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));

const programsWithOddText = fc.record({
  caa: fc.option(
    fc.record({
      status: fc.option(fc.string(), { nil: null }),
      significant: fc.option(fc.boolean(), { nil: null }),
      qtrs_with_nc: fc.option(fc.nat(13), { nil: null }),
      formal_actions: fc.option(fc.nat(), { nil: null }),
      informal_actions: fc.option(fc.nat(), { nil: null }),
      penalties_usd: fc.option(fc.double({ min: 0, max: 1e12, noNaN: true }), { nil: null }),
      last_penalty_usd: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: null }),
      last_penalty_date: fc.option(fc.string(), { nil: null }),
      last_formal_action_date: fc.option(fc.string(), { nil: null }),
      history: fc.option(fc.string({ maxLength: 13 }), { nil: null }),
      qncr_codes: fc.option(fc.string(), { nil: null }),
    }),
    { nil: null },
  ),
  cwa: fc.constant(null),
  rcra: fc.constant(null),
  sdwa: fc.constant(null),
}) as fc.Arbitrary<ProgramsInputs>;

describe('the explanation stored as sentence templates (index format 7)', () => {
  it('any sentence comes back exactly: numbers, dates, dollar amounts, quotes, backslashes and non-ASCII text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sentence, fc.stringMatching(/^[a-z $,.()-]{0,8}[0-9][0-9,.-]{0,12}[a-z ]{0,8}$/)), { minLength: 4, maxLength: 4 }), (reasons) => {
        expect(roundTrip(reasons)).toEqual(reasons);
      }),
    );
    const real = ['$94,770 in penalties in the last 5 years (3 penalties)', 'Formal enforcement action 14 months before 2026-10-31 (on 2025-08-30)', '007 "quoted" \\ back', '1.5, 2,3 - 4-5'];
    expect(roundTrip(real)).toEqual(real);
  });

  it('sentences that differ only in their numbers share one template', () => {
    const templates = new ReasonTemplates();
    const stored: (string | number)[] = [];
    templates.encode('4 of the last 12 quarters in violation', stored);
    templates.encode('11 of the last 12 quarters in violation', stored);
    templates.encode('$1,000 in penalties in the last 5 years (1 penalty)', stored);
    expect(templates.drain().map(([, pieces]) => JSON.parse(pieces))).toEqual([
      ['', ' of the last ', ' quarters in violation'],
      ['$', ' in penalties in the last ', ' years (', ' penalty)'],
    ]);
    // plain integers are stored as numbers (shorter); anything else keeps its text
    expect(stored).toEqual([0, 4, 12, 0, 11, 12, 1, '1,000', 5, 1]);
  });

  it('a sentence holding a NUL character is refused rather than stored wrongly', () => {
    expect(() => new ReasonTemplates().encode('a\u0000b', [])).toThrow('NUL');
  });

  it("the stored explanation gives the API's explanation lines, the same JSON as explaining the inputs per request", () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const templates = new ReasonTemplates();
        const why: ScoreExplanation = explainComponents(inputs, asOf);
        const detail = parseDetail(encodeDetail(inputs.programs, why, templates));
        const points = scoreFacility(inputs, asOf);
        // as JSON text: the same values and the same key order
        expect(JSON.stringify(explanationLines(points, new ReasonDecoder(templates.drain()).explanation(detail, EXPLANATION_AT)))).toBe(JSON.stringify(explanationLines(points, why)));
      }),
    );
  });
});

describe('the programs stored in the detail', () => {
  it('come back as the same records, keys in schema order', () => {
    fc.assert(
      fc.property(fc.oneof(scenarioArb.chain(({ asOf }) => programsArb(asOf)), programsWithOddText), (programs) => {
        const text = encodeDetail(programs, { violation_frequency: 'a', penalty_severity: 'b', recency: 'c', repeat_offender: 'd', active_enforcement: 'e' }, new ReasonTemplates());
        expect(programsOfDetail(text, [])).toEqual(programs);
        expect(JSON.stringify(programsOfArray(parseDetail(text)[0]))).toBe(JSON.stringify(programs));
        // format 10: the same, with records shared through program_record (its rows as drained)
        const records = new ProgramRecords();
        const shared = encodeDetail(programs, { violation_frequency: 'a', penalty_severity: 'b', recency: 'c', repeat_offender: 'd', active_enforcement: 'e' }, new ReasonTemplates(), records);
        const rows = sharedRecordsOf(records.drain().map(([id, record]) => ({ id, record })));
        expect(JSON.stringify(programsOfDetail(shared, rows))).toBe(JSON.stringify(programs));
      }),
    );
  });

  it('format 10 shares a record without a date or an amount (one id for equal records) and keeps the others in the row', () => {
    const clean = {
      status: 'No Violation Identified', significant: false, qtrs_with_nc: 0, formal_actions: 0, informal_actions: 0, penalties_usd: 0, last_penalty_usd: 0,
      last_penalty_date: null, last_formal_action_date: null, history: '____________', qncr_codes: null,
    };
    const records = new ProgramRecords();
    expect(records.entry(null)).toBeNull();
    expect(records.entry(clean)).toBe(0);
    expect(records.entry({ ...clean })).toBe(0);
    expect(records.entry({ ...clean, qtrs_with_nc: null, status: null })).toBe(1);
    expect(records.drain().map(([id, text]) => [id, JSON.parse(text)[0]])).toEqual([[0, 'No Violation Identified'], [1, null]]);
    expect(records.drain()).toEqual([]);
    for (const own of [{ penalties_usd: 10 }, { last_penalty_usd: 5 }, { last_penalty_date: '2024-01-02' }, { last_formal_action_date: '2024-01-02' }]) {
      expect(records.entry({ ...clean, ...own })).toEqual(Object.values({ ...clean, ...own }));
    }
    expect(records.drain()).toEqual([]);
    // past its limit a new shape stays in the row; shapes already shared keep their id
    const small = new ProgramRecords(2);
    expect([small.entry(clean), small.entry({ ...clean, qtrs_with_nc: 1 }), small.entry({ ...clean, qtrs_with_nc: 2 }), small.entry(clean)]).toEqual([0, 1, Object.values({ ...clean, qtrs_with_nc: 2 }), 0]);
  });

  it('an id with no program_record row is an error, not a made-up record', () => {
    expect(() => programsOfArray([3, null, null, null], [])).toThrow('program record 3 is not in the index');
  });

  it('a facility in no program stores 0 and reads as four nulls', () => {
    const none: ProgramsInputs = { caa: null, cwa: null, rcra: null, sdwa: null };
    const text = encodeDetail(none, { violation_frequency: 'a', penalty_severity: 'b', recency: 'c', repeat_offender: 'd', active_enforcement: 'e' }, new ReasonTemplates());
    expect(parseDetail(text)[0]).toBe(0);
    expect(JSON.stringify(programsOfArray(0))).toBe(JSON.stringify(none));
  });
});
