import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { explainComponents } from '../../src/scoring/explain';
import { scoreFacility } from '../../src/scoring/score';
import { CLEAN_INPUTS, inputsWith } from '../helpers';
import { oddScenarioArb } from './arbitraries';

const AS_OF = '2025-06-30';

describe('explainComponents', () => {
  it('says plainly that a clean facility has nothing against it', () => {
    expect(explainComponents(CLEAN_INPUTS, AS_OF)).toEqual({
      violation_frequency: 'No quarter in violation in the last 12 quarters (3 years)',
      penalty_severity: 'No penalties in the last 5 years',
      recency: 'No dated enforcement action, penalty or violation in the scoring windows',
      repeat_offender: 'No enforcement actions in the last 5 years',
      active_enforcement: 'No: not in significant violation and no formal action in the 12 months before 2025-06-30',
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
    expect(e.violation_frequency).toBe('4 of the last 12 quarters in violation, 1 significant');
    expect(e.penalty_severity).toBe('$1,234,567 in penalties in the last 5 years (2 penalties)');
    expect(e.recency).toBe('Formal enforcement action 12 months before 2025-06-30 (on 2024-06-30); no date for the informal action, so not counted for recency');
    expect(e.repeat_offender).toBe('2 formal enforcement actions and 1 informal action in the last 5 years');
    expect(e.active_enforcement).toBe('Yes: formal enforcement action on 2024-06-30, 12 months before 2025-06-30');
  });

  it('says when a figure comes from a count, and names undated events instead of assuming a date', () => {
    const e = explainComponents(inputsWith({ qtrs_with_nc: 5, history: '', formal_action_count: 1, total_penalties_usd: 4255 }), AS_OF);
    expect(e.violation_frequency).toBe('5 of the last 12 quarters in violation (count from the quarter-count columns; no quarterly history in the data)');
    // fcs-2.0: the undated formal action and penalty are named, never placed at an invented date
    expect(e.recency).toBe('Violation 21 months before 2025-06-30 (the oldest the quarter count allows; no quarterly history); no date for the formal action and penalty, so not counted for recency');
    expect(e.active_enforcement).toBe('No: a formal action is reported but not its date, so it cannot be shown to be open');
  });

  it('names a current significant violation as the reason enforcement is active', () => {
    const e = explainComponents(inputsWith({ significant_violation: true, compliance_status: 'Significant Violation', qtrs_with_nc: 1 }), AS_OF);
    expect(e.recency).toBe('Significant non-compliance at the as-of date 2025-06-30 (current compliance status)');
    expect(e.active_enforcement).toBe('Yes: currently in significant violation');
  });

  it('counts penalties as cases when there are more of them than formal actions', () => {
    const e = explainComponents(inputsWith({ penalty_count: 3, formal_action_count: 1, total_penalties_usd: 900 }), AS_OF);
    expect(e.repeat_offender).toBe('3 penalties (each counted as a formal case; 1 formal action reported) and 0 informal actions in the last 5 years');
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
    ['2024-06-30', true], // 365 days: 11.99 months
    ['2024-06-29', false], // 366 days: 12.02 months
  ])('agrees with the flag at the 12-month edge: a formal action on %s is open: %p', (date, open) => {
    const inputs = inputsWith({ formal_action_count: 1, date_last_formal_action: date });
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
    expect(e.penalty_severity).toBe('Penalties not reported by the source; none shown');
    expect(e.repeat_offender).toBe('No formal enforcement actions in the last 5 years (informal actions not reported)');
  });

  it('says the action is dated after the as-of date and counted as at it', () => {
    const e = explainComponents(inputsWith({ formal_action_count: 1, date_last_formal_action: '2025-09-01' }), AS_OF);
    expect(e.recency).toBe('Formal enforcement action at the as-of date 2025-06-30 (on 2025-09-01, after the as-of date)');
    expect(e.active_enforcement).toBe('Yes: formal enforcement action on 2025-09-01, after the as-of date');
  });
});
