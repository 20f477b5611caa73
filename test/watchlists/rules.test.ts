import { describe, expect, it } from 'bun:test';
import type { ReleaseChange } from '../../src/index/history-tables/release-changes';
import type { Rule } from '../../src/watchlists/model';
import { eventTypeOf } from '../../src/watchlists/rules';

function change(o: Partial<ReleaseChange>): ReleaseChange {
  return { registry_id: '990000000001', fac_name: 'X', as_of: '2026-10-08', previous_as_of: '2026-10-01', kind: 'changed', overall_score: 70, previous_score: 80, active_enforcement: false, previous_enforcement: false, score_method: 'fcs-1.0', reason: 'data', ...o };
}

const drop10 = change({});
const drop4 = change({ overall_score: 76 });
const rise = change({ overall_score: 90 });
const started = change({ overall_score: 80, active_enforcement: true });
const ended = change({ overall_score: 80, active_enforcement: false, previous_enforcement: true });
const removed = change({ kind: 'removed', overall_score: null, active_enforcement: null });
const added = change({ kind: 'added', previous_score: null, previous_enforcement: null, previous_as_of: null });

const any: Rule | null = null;
const dropped5: Rule = { type: 'score_dropped', min_points: 5 };
const enforcement: Rule = { type: 'enforcement_started' };
const gone: Rule = { type: 'facility_removed' };

describe('which event a change makes under a rule', () => {
  it.each([
    ['a drop of 10, no rule', drop10, any, 'facility.score_changed'],
    ['a rise, no rule', rise, any, 'facility.score_changed'],
    ['an enforcement that starts, no rule', started, any, 'facility.enforcement_started'],
    ['an enforcement that ends, no rule', ended, any, 'facility.score_changed'],
    ['a removal, no rule', removed, any, 'facility.removed'],
    ['an addition, no rule', added, any, null],
    ['a drop of 10 under "dropped by >= 5"', drop10, dropped5, 'facility.score_changed'],
    ['a drop of 4 under "dropped by >= 5"', drop4, dropped5, null],
    ['a rise under "dropped by >= 5"', rise, dropped5, null],
    ['a removal under "dropped by >= 5"', removed, dropped5, null],
    ['an enforcement start under "enforcement started"', started, enforcement, 'facility.enforcement_started'],
    ['a drop under "enforcement started"', drop10, enforcement, null],
    ['an enforcement that ends under "enforcement started"', ended, enforcement, null],
    ['a removal under "facility removed"', removed, gone, 'facility.removed'],
    ['a drop under "facility removed"', drop10, gone, null],
  ] as const)('%s', (_name, c, rule, expected) => {
    expect(eventTypeOf(c, rule)).toBe(expected);
  });

  it.each([
    ['a drop made only by a new score method, no rule', change({ reason: 'method' }), any, null],
    ['an enforcement flag turned on only by a new score method, under "enforcement started"', change({ reason: 'method', overall_score: 80, active_enforcement: true }), enforcement, null],
    ['a drop of 10 made only by a new score method, under "dropped by >= 5"', change({ reason: 'method' }), dropped5, null],
    ['the same under "dropped by >= 5" asking for method changes', change({ reason: 'method' }), { ...dropped5, include_method_changes: true } as Rule, 'facility.score_changed'],
    ['the same under "any change" asking for method changes', change({ reason: 'method' }), { type: 'any_change', include_method_changes: true } as Rule, 'facility.score_changed'],
    ['a drop of 10 of data and method at once, under "dropped by >= 5"', change({ reason: 'data_and_method' }), dropped5, 'facility.score_changed'],
  ] as const)('%s', (_name, c, rule, expected) => {
    expect(eventTypeOf(c, rule)).toBe(expected);
  });

  it('a drop of exactly N matches "dropped by >= N"', () => {
    expect(eventTypeOf(change({ overall_score: 75 }), dropped5)).toBe('facility.score_changed');
  });
});
