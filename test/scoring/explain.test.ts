import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { explainComponents, explanationLines } from '../../src/scoring/explain';
import { scoreFacility } from '../../src/scoring/score';
import { CLEAN_INPUTS, inputsWith } from '../helpers';
import { oddScenarioArb, scenarioArb } from './arbitraries';

const AS_OF = '2025-06-30';

describe('explainComponents', () => {
  it('says plainly that a clean facility has nothing against it', () => {
    expect(explainComponents(CLEAN_INPUTS, AS_OF)).toEqual({
      violation_frequency: 'No quarter in violation in the last 12 quarters (3 years)',
      penalty_severity: 'No penalties in the last 5 years',
      recency: 'No dated violation, enforcement action or penalty in the last 5 years',
      repeat_offender: 'No enforcement actions in the last 5 years',
      active_enforcement: 'No: no formal enforcement action or federal case dated in the last 12 months (none in the last 5 years)',
    });
  });

  it('names the counts, amounts and dates that drove each component', () => {
    const e = explainComponents(
      inputsWith({
        qtrs_with_nc: 4,
        history: '__VV__S___V_',
        formal_action_count: 2,
        informal_action_count: 1,
        penalty_count: 2,
        total_penalties_usd: 1_234_567.4,
        date_last_penalty: '2024-06-30',
        date_last_formal_action: '2024-06-30',
      }),
      AS_OF,
    );
    expect(e.violation_frequency).toBe('4 of the last 12 quarters in violation, 1 of them significant');
    expect(e.penalty_severity).toBe('$1,234,567 in penalties in the last 5 years (2 penalties)');
    // the violation 3 months back (15 x (1 - 3/36) = 13.75) weighs more than the formal action of a year ago (10 x (1 - 12/60) = 8)
    expect(e.recency).toBe('Violation in the quarter 3 months before the latest, per the quarterly history (data date 2025-06-30); the informal action has no date in the file, so it does not count here');
    expect(e.repeat_offender).toBe('2 formal enforcement actions and 1 informal action in the last 5 years');
    expect(e.active_enforcement).toBe('Yes: enforcement action in the last 12 months: a formal enforcement action on 2024-06-30');
  });

  it('says when a figure comes from a count, and names undated events instead of assuming a date', () => {
    const e = explainComponents(inputsWith({ qtrs_with_nc: 5, history: '', formal_action_count: 1, total_penalties_usd: 4255 }), AS_OF);
    expect(e.violation_frequency).toBe('5 of the last 12 quarters in violation (from the quarter counts; the file has no quarter-by-quarter history)');
    // the undated formal action and penalty are named, never placed at an invented date
    expect(e.recency).toBe(
      'Violation no more than 21 months before the data date (2025-06-30): 5 of the last 12 quarters were in violation, and the file has no quarter-by-quarter history; ' +
        'the formal action and penalty have no date in the file, so they do not count here',
    );
    expect(e.active_enforcement).toBe('No: no formal enforcement action or federal case dated in the last 12 months (the actions on record have no date)');
  });

  it('names a current significant violation left unanswered, and says no enforcement is active', () => {
    const e = explainComponents(inputsWith({ snc_flag: true, compliance_status: 'Significant Violation', qtrs_with_nc: 1 }), AS_OF);
    expect(e.penalty_severity).toBe('No penalties in the last 5 years; in significant violation now with no enforcement response, which counts as the gravest penalty band');
    expect(e.recency).toBe('In significant violation at the data date (2025-06-30), per the current compliance status, with no enforcement action dated since it began');
    expect(e.repeat_offender).toBe('In significant violation now, with no enforcement action dated since it began');
    expect(e.active_enforcement).toBe(
      'No: no formal enforcement action or federal case dated in the last 12 months (none in the last 5 years); the facility is in significant violation, with no enforcement action dated since it began',
    );
  });

  it('counts penalties as cases when there are more of them than formal actions', () => {
    const e = explainComponents(inputsWith({ penalty_count: 3, formal_action_count: 1, total_penalties_usd: 900 }), AS_OF);
    expect(e.repeat_offender).toBe('3 penalties (each counted as a separate case; 1 formal action reported) and 0 informal actions in the last 5 years');
  });

  it('always gives five non-empty ASCII lines (the PDF fonts are WinAnsi), whatever the inputs', () => {
    fc.assert(
      fc.property(oddScenarioArb, ({ inputs, asOf }) => {
        const lines = Object.values(explainComponents(inputs, asOf));
        return lines.length === 5 && lines.every((l) => l.length > 0 && /^[\x20-\x7e]+$/.test(l) && !l.includes('NaN'));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['2024-06-30', true], // 365 days: 11.99 months, inside the 12 months
    ['2024-06-29', false], // 366 days: 12.02 months, before them
  ])('agrees with the flag at the 12-month edge: a formal action dated %s alone (no count) is recent: %p', (date, open) => {
    const inputs = inputsWith({ formal_action_count: 0, date_last_formal_action: date });
    expect(scoreFacility(inputs, AS_OF).active_enforcement).toBe(open);
    expect(explainComponents(inputs, AS_OF).active_enforcement.startsWith('Yes:')).toBe(open);
  });

  it('says Yes for active_enforcement exactly when the score flags it, whatever the inputs', () => {
    fc.assert(
      fc.property(oddScenarioArb, ({ inputs, asOf }) => {
        expect(explainComponents(inputs, asOf).active_enforcement.startsWith('Yes:')).toBe(scoreFacility(inputs, asOf).active_enforcement);
      }),
      { numRuns: 300 },
    );
  });
});

describe('explainComponents for a date after the as-of date', () => {
  it('says "not reported" for what a facility-search file lacks, never "none"', () => {
    const e = explainComponents(inputsWith({ informal_action_count: null, penalty_count: null, total_penalties_usd: null, not_reported: ['informal_action_count', 'penalty_count', 'total_penalties_usd'] }), AS_OF);
    expect(e.penalty_severity).toBe('The source does not report penalties; none shown');
    expect(e.repeat_offender).toBe('No formal enforcement actions in the last 5 years (informal actions not reported)');
  });

  it('says the action is dated after the as-of date and counted as at it', () => {
    const e = explainComponents(inputsWith({ formal_action_count: 1, date_last_formal_action: '2025-09-01' }), AS_OF);
    expect(e.recency).toBe('Formal enforcement action on 2025-09-01, after the data date (2025-06-30); counted as on it');
    expect(e.active_enforcement).toBe('Yes: enforcement action in the last 12 months: a formal enforcement action on 2025-09-01 (after the data date)');
  });
});

describe("the API's explanation lines", () => {
  it('list only the components that lost points, each with what it lost', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const r = scoreFacility(inputs, asOf);
        const lines = explanationLines(r, explainComponents(inputs, asOf));
        const lost = (['violation_frequency', 'penalty_severity', 'recency', 'repeat_offender'] as const).filter((c) => r[c] < { violation_frequency: 15, penalty_severity: 30, recency: 25, repeat_offender: 15 }[c]);
        expect(lines.map((l) => l.component)).toEqual(lost);
        for (const l of lines) expect(l.points_lost).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it('are empty for a clean facility: no line for a component that lost nothing', () => {
    const r = scoreFacility(CLEAN_INPUTS, AS_OF);
    expect(explanationLines(r, explainComponents(CLEAN_INPUTS, AS_OF))).toEqual([]);
  });
});
