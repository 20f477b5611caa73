import { describe, expect, it } from 'bun:test';
import type { ProgramInputs, ScoreInputs } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { CLEAN_INPUTS, inputsWith } from '../helpers';

// Expected points are worked out by hand from the formulas in docs/scoring.md (arithmetic in each
// row's name), never copied from the code's output.
const AS_OF = '2025-06-30';
const NOTHING: ScoreInputs = {
  ...CLEAN_INPUTS,
  history: '',
  compliance_status: '',
  inspection_count: 0,
  date_last_inspection: null,
};
const at = (o: Partial<ScoreInputs>): ScoreInputs => ({ ...CLEAN_INPUTS, ...o });
const NO_PROGRAMS = CLEAN_INPUTS.programs;
/** A program record with nothing against it; override any field. */
const program = (o: Partial<ProgramInputs>): ProgramInputs => ({
  status: 'No Violation Identified', significant: false, qtrs_with_nc: 0, formal_actions: 0, informal_actions: 0,
  penalties_usd: 0, last_penalty_usd: 0, last_penalty_date: null, last_formal_action_date: null, history: null, qncr_codes: null, ...o,
});
const SNC_NOW = at({ qtrs_with_nc: 1, history: '___________S', compliance_status: 'Significant Violation', snc_flag: true, programs_in_snc: 1 });

type Row = [string, ScoreInputs, [number, number, number, number], number, boolean];

const rows: Row[] = [
  ['a clean facility scores 15 + 15 + 30 + 25 + 15 = 100', CLEAN_INPUTS, [15, 30, 25, 15], 100, false],
  ['a facility with no data at all (facility-search row, nothing reported) scores 100', NOTHING, [15, 30, 25, 15], 100, false],
  [
    'one violation in the current quarter: frequency 15 - 1.25 = 13.75 -> 14, recency 25 - 15 = 10',
    inputsWith({ qtrs_with_nc: 1, history: '___________V', compliance_status: 'Violation Identified' }),
    [14, 30, 10, 15],
    84,
    false,
  ],
  [
    'violation in all 12 quarters: frequency 15 - 12 x 1.25 = 0, recency 25 - 15 = 10',
    inputsWith({ qtrs_with_nc: 12, history: 'VVVVVVVVVVVV', compliance_status: 'Violation Identified' }),
    [0, 30, 10, 15],
    70,
    false,
  ],
  [
    'six significant quarters 18 months back: frequency 15 - 6 x 2.5 = 0, recency 25 - 20 x (1 - 18/36) = 15',
    inputsWith({ qtrs_with_nc: 6, history: 'SSSSSS______' }),
    [0, 30, 15, 15],
    75,
    false,
  ],
  [
    'a new significant violation, unanswered: frequency 15 - 1.25 - 1.25 - 3.75 = 8.75 -> 9, penalty 0 (an unanswered SNC is the top band), recency 25 - 25 = 0, repeat 15 - 4 = 11; no action, so not active',
    SNC_NOW,
    [9, 0, 0, 11],
    35,
    false,
  ],
  [
    'the same SNC answered by a formal action 2.99 months back, within its one-quarter run (no penalty): penalty 30, recency 25 - 20 (answered SNC) = 5, repeat 15 - 3 = 12, so 71 > 35; active (snc_answered)',
    { ...SNC_NOW, formal_action_count: 1, date_last_formal_action: '2025-03-31' },
    [9, 30, 5, 12],
    71,
    true,
  ],
  [
    'the same SNC with a formal action 4.01 months back, before its one-quarter run began: not answered, repeat 15 - 3 - 4 = 8; active only as an action in the last 12 months',
    { ...SNC_NOW, formal_action_count: 1, date_last_formal_action: '2025-02-28' },
    [9, 0, 0, 8],
    32,
    true,
  ],
  [
    'three years of unanswered SNC: frequency 0, penalty 0, recency 0, repeat 15 - 4 - 11 x 1 = 0: the lowest score, 15',
    at({ qtrs_with_nc: 12, history: 'SSSSSSSSSSSS', compliance_status: 'Significant Violation', programs_in_snc: 1 }),
    [0, 0, 0, 0],
    15,
    false,
  ],
  [
    'the same three years answered by a formal action with a $10,000 penalty 24 months back: penalty 20, recency 25 - 20 = 5, repeat 12',
    at({ qtrs_with_nc: 12, history: 'SSSSSSSSSSSS', compliance_status: 'Significant Violation', programs_in_snc: 1, formal_action_count: 1, date_last_formal_action: '2023-06-30', penalty_count: 1, total_penalties_usd: 10_000, last_penalty_usd: 10_000, date_last_penalty: '2023-06-30' }),
    [0, 20, 5, 12],
    52,
    true,
  ],
  [
    'a clean record and a $1,000,000 penalty 0.99 months back: penalty 30 - 5 - 15 = 10, recency 25 - (10 + 5 x log10(200)) x (1 - 0.99/60) = 3.85 -> 4, repeat 12',
    inputsWith({ formal_action_count: 1, penalty_count: 1, total_penalties_usd: 1e6, last_penalty_usd: 1e6, date_last_penalty: '2025-05-31', date_last_formal_action: '2025-05-31' }),
    [15, 10, 4, 12],
    56,
    true,
  ],
  [
    'a clean record and a $500 penalty 0.99 months back: penalty 25, recency 25 - 10 x (1 - 0.99/60) = 15.16 -> 15, repeat 12',
    inputsWith({ formal_action_count: 1, penalty_count: 1, total_penalties_usd: 500, last_penalty_usd: 500, date_last_penalty: '2025-05-31', date_last_formal_action: '2025-05-31' }),
    [15, 25, 15, 12],
    82,
    true,
  ],
  [
    'a CWA SNC with 4 effluent exceedances: frequency 15 - 6.25 - 1.25 x (1 + log2 4) = 5, 4 below the same SNC for paperwork alone',
    { ...SNC_NOW, programs: { ...NO_PROGRAMS, cwa: program({ status: 'Significant Violation', significant: true, effluent_exceedances: 4 }) } },
    [5, 0, 0, 11],
    31,
    false,
  ],
  [
    'SNC under two programs: frequency 15 - 6.25 - 1.25 (second program in violation) - 2.5 (second program in SNC) = 5',
    { ...SNC_NOW, programs: { ...NO_PROGRAMS, caa: program({ status: 'High Priority Violation', significant: true }), cwa: program({ status: 'Significant Violation', significant: true }) } },
    [5, 0, 0, 11],
    31,
    false,
  ],
  [
    'a $10,000 CWA penalty on the as-of date, only in the program columns: penalty 30 - 5 - 5 = 20, recency 25 - (10 + 5 x log10 2) = 13.49 -> 13, repeat 12',
    at({ programs: { ...NO_PROGRAMS, cwa: program({ penalties_usd: 10_000, last_penalty_usd: 10_000, last_penalty_date: AS_OF }) } }),
    [15, 20, 13, 12],
    75,
    false,
  ],
  [
    'a $1,000 penalty by formal action on the as-of date: penalty 30 - 5 = 25, recency 25 - 10 = 15, repeat 15 - 3 = 12',
    inputsWith({ formal_action_count: 1, penalty_count: 1, total_penalties_usd: 1000, last_penalty_usd: 1000, date_last_penalty: AS_OF, date_last_formal_action: AS_OF }),
    [15, 25, 15, 12],
    82,
    true,
  ],
  [
    'a $100,000 penalty of unknown date: penalty 30 - 5 - 2 x 5 = 15, recency 25 (an undated event is not placed in time), repeat 12',
    at({ total_penalties_usd: 100_000 }),
    [15, 15, 25, 12],
    82,
    false,
  ],
  [
    'a $5,000 penalty: 30 - 5 - 5 x log10(5) = 21.5 -> 22',
    inputsWith({ penalty_count: 1, total_penalties_usd: 5000, date_last_penalty: '2020-06-30' }),
    [15, 22, 25, 12],
    89,
    false,
  ],
  [
    'a billion dollars in penalties leaves 0 penalty points (floor of the log scale)',
    inputsWith({ penalty_count: 1, total_penalties_usd: 1e9, date_last_penalty: '2020-01-01' }),
    [15, 0, 25, 12],
    67,
    false,
  ],
  [
    'a penalty count with no amount is still a penalty: 30 - 5 = 25',
    inputsWith({ penalty_count: 1, date_last_penalty: '2019-01-01' }),
    [15, 25, 25, 12],
    92,
    false,
  ],
  [
    'a formal action two years back: recency 25 - 10 x (1 - 24.02/60) = 19.0 -> 19; older than 12 months, so not active',
    inputsWith({ formal_action_count: 1, date_last_formal_action: '2023-06-30' }),
    [15, 30, 19, 12],
    91,
    false,
  ],
  [
    'a formal action 11 months back is active enforcement (an action in the last 12 months)',
    inputsWith({ formal_action_count: 1, date_last_formal_action: '2024-07-30' }),
    // 335 days = 11.01 months: recency 25 - 10 x (1 - 11.01/60) = 16.83 -> 17
    [15, 30, 17, 12],
    89,
    true,
  ],
  [
    'a formal action dated after the as-of date counts as happening at it: recency 25 - 10 = 15, enforcement active',
    inputsWith({ formal_action_count: 1, date_last_formal_action: '2026-01-01' }),
    [15, 30, 15, 12],
    87,
    true,
  ],
  [
    'two formal actions of unknown date: repeat 15 - 3 - 4 = 8, recency untouched, not active (no date, no claim)',
    inputsWith({ formal_action_count: 2 }),
    [15, 30, 25, 8],
    93,
    false,
  ],
  ['four formal actions of unknown date: repeat 15 - 3 - 3 x 4 < 0 -> 0', inputsWith({ formal_action_count: 4 }), [15, 30, 25, 0], 85, false],
  [
    'three penalties but one formal action (no dates) count as three cases: repeat 15 - 3 - 8 = 4',
    inputsWith({ formal_action_count: 1, penalty_count: 3, total_penalties_usd: 1000 }),
    [15, 25, 25, 4],
    84,
    false,
  ],
  [
    'an informal action 2.99 months back: recency 25 - 6 x (1 - 2.99/36) = 19.498 -> 19, repeat 15 - 1 = 14',
    inputsWith({ informal_action_count: 1, date_last_informal_action: '2025-03-31' }),
    [15, 30, 19, 14],
    93,
    false,
  ],
  ['nine informal actions (no date) cost at most 5: repeat 10', inputsWith({ informal_action_count: 9 }), [15, 30, 25, 10], 95, false],
  [
    'facility-search row, 5 quarters and no history: frequency 15 - 6.25 = 8.75 -> 9, latest violation at most 7 quarters back: recency 25 - 15 x (1 - 21/36) = 18.75 -> 19',
    at({ qtrs_with_nc: 5, history: null }),
    [9, 30, 19, 15],
    88,
    false,
  ],
  [
    'a formal action count without a date costs repeat 3 but no recency, and is not active (no date, no claim)',
    at({ formal_action_count: 1 }),
    [15, 30, 25, 12],
    97,
    false,
  ],
  [
    'a significant violation only in FAC_COMPLIANCE_STATUS (SNC flag N) still counts as significant',
    at({ qtrs_with_nc: 1, history: '', compliance_status: 'Significant Violation', snc_flag: false }),
    [9, 0, 0, 11],
    35,
    false,
  ],
  [
    "a program status like 'Failure to Report DMR - Not Received' is a current violation",
    inputsWith({ qtrs_with_nc: 0, history: '', compliance_status: 'Failure to Report DMR - Not Received' }),
    [14, 30, 10, 15],
    84,
    false,
  ],
];

describe('documented cases', () => {
  it.each(rows)('%s', (_name, inputs, [vf, ps, rc, ro], overall, active) => {
    const r = scoreFacility(inputs, AS_OF);
    expect([r.violation_frequency, r.penalty_severity, r.recency, r.repeat_offender]).toEqual([vf, ps, rc, ro]);
    expect(r.overall).toBe(overall);
    expect(r.active_enforcement).toBe(active);
  });
});

describe('odd values', () => {
  const odd: [string, Partial<ScoreInputs>, Partial<Record<'violation_frequency' | 'penalty_severity' | 'recency' | 'repeat_offender', number>>][] = [
    ['NaN and negative counts count as none', { qtrs_with_nc: Number.NaN, formal_action_count: -3, penalty_count: Number.NaN }, { violation_frequency: 15, repeat_offender: 15 }],
    ['an infinite penalty is the worst penalty tier, not NaN', { total_penalties_usd: Number.POSITIVE_INFINITY }, { penalty_severity: 0 }],
    ['more than 12 quarters is clamped to 12', { qtrs_with_nc: 40 }, { violation_frequency: 0 }],
    ['lower-case history letters are read like upper-case', { history: '___________v' }, { violation_frequency: 14, recency: 10 }],
    ['unknown history letters are not violations', { history: 'XYZ?--**..##' }, { violation_frequency: 15, recency: 25 }],
    ['an impossible date (Feb 30) with a count is an event of unknown date: no recency cost', { formal_action_count: 1, date_last_formal_action: '2025-02-30' }, { recency: 25, repeat_offender: 12 }],
    ['a junk date text alone still says an action happened', { date_last_formal_action: 'sometime' }, { recency: 25, repeat_offender: 12 }],
    ["ECHO's MM/DD/YYYY dates are read too", { formal_action_count: 1, date_last_formal_action: '06/30/2025' }, { recency: 15 }],
  ];
  it.each(odd)('%s', (_name, over, expected) => {
    const r = scoreFacility(inputsWith(over), AS_OF);
    for (const [k, v] of Object.entries(expected)) expect(r[k as keyof typeof expected]).toBe(v);
  });

  it.each(['', '2025-13-01', '30/06/2025', 'yesterday', '2025-02-29'])('an invalid as-of date %p is refused with a RangeError', (asOf) => {
    expect(() => scoreFacility(CLEAN_INPUTS, asOf)).toThrow(RangeError);
  });
});
