import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { BASELINE_POINTS, MAX_POINTS, type ScoreInputs, type ScoreResult } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { COMPONENTS, daysBefore, oddScenarioArb, scenarioArb } from './arbitraries';

const RUNS = { numRuns: 400 };

/** Every component (and the overall) of `after` is at most that of `before`. */
function neverRaised(before: ScoreResult, after: ScoreResult): boolean {
  return COMPONENTS.every((c) => after[c] <= before[c]) && after.overall <= before.overall;
}

function checkBounds(r: ScoreResult): void {
  for (const c of COMPONENTS) {
    expect(Number.isInteger(r[c])).toBe(true);
    expect(r[c]).toBeGreaterThanOrEqual(0);
    expect(r[c]).toBeLessThanOrEqual(MAX_POINTS[c]);
  }
  expect(r.baseline).toBe(BASELINE_POINTS);
  expect(r.overall).toBe(r.baseline + r.violation_frequency + r.penalty_severity + r.recency + r.repeat_offender);
  expect(r.overall).toBeGreaterThanOrEqual(0);
  expect(r.overall).toBeLessThanOrEqual(100);
  expect(typeof r.active_enforcement).toBe('boolean');
  expect(r.score_hash).toMatch(/^[0-9a-f]{32}$/);
}

describe('score bounds', () => {
  it('every component is an integer within 0..max_points and overall is baseline + the four, within 0..100', () => {
    fc.assert(fc.property(scenarioArb, ({ inputs, asOf }) => checkBounds(scoreFacility(inputs, asOf))), RUNS);
  });

  it('odd inputs (NaN, Infinity, negatives, junk dates and history) never give NaN or an out-of-bounds score', () => {
    fc.assert(fc.property(oddScenarioArb, ({ inputs, asOf }) => checkBounds(scoreFacility(inputs, asOf))), RUNS);
  });

  it('the same inputs and as-of always give the same result, also for a deep copy', () => {
    fc.assert(
      fc.property(oddScenarioArb, ({ inputs, asOf }) => {
        expect(scoreFacility(structuredClone(inputs), asOf)).toEqual(scoreFacility(inputs, asOf));
      }),
      RUNS,
    );
  });
});

describe('monotonicity: more trouble never raises a component', () => {
  const upgrade: Record<string, string> = { _: 'V', U: 'V', V: 'S', S: 'S' };

  it('more quarters counted in violation never raise a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 12 }), ({ inputs, asOf }, k) => {
        const more = { ...inputs, qtrs_with_nc: Math.min(12, inputs.qtrs_with_nc + k) };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  it('turning a history quarter from clean to violation, or violation to significant, never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(11), ({ inputs, asOf }, i) => {
        const h = inputs.history.padEnd(12, '_');
        const worse = { ...inputs, history: h.slice(0, i) + (upgrade[h[i]!] ?? 'V') + h.slice(i + 1) };
        return neverRaised(scoreFacility({ ...inputs, history: h }, asOf), scoreFacility(worse, asOf));
      }),
      RUNS,
    );
  });

  it('a current significant violation never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const base = { ...inputs, significant_violation: false };
        return neverRaised(scoreFacility(base, asOf), scoreFacility({ ...base, significant_violation: true }, asOf));
      }),
      RUNS,
    );
  });

  it('larger penalties (total, last amount or count) never raise a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 1e9 }), fc.nat(5), ({ inputs, asOf }, extra, n) => {
        const more: ScoreInputs = {
          ...inputs,
          total_penalties_usd: inputs.total_penalties_usd + extra,
          last_penalty_usd: inputs.last_penalty_usd + extra / 2,
          penalty_count: inputs.penalty_count + n,
        };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  it('more formal or informal actions never raise a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(6), fc.nat(6), ({ inputs, asOf }, formal, informal) => {
        const more = {
          ...inputs,
          formal_action_count: inputs.formal_action_count + formal,
          informal_action_count: inputs.informal_action_count + informal,
        };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  it.each(['date_last_penalty', 'date_last_formal_action', 'date_last_informal_action'] as const)(
    'a more recent %s never raises a component',
    (field) => {
      fc.assert(
        fc.property(scenarioArb, fc.integer({ min: -400, max: 4000 }), fc.integer({ min: 1, max: 3000 }), ({ inputs, asOf }, older, step) => {
          const earlier = { ...inputs, [field]: daysBefore(asOf, older) };
          const later = { ...inputs, [field]: daysBefore(asOf, older - step) };
          return neverRaised(scoreFacility(earlier, asOf), scoreFacility(later, asOf));
        }),
        RUNS,
      );
    },
  );

  it('the same data scored at a later as-of date never loses points (events only age)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 2000 }), ({ inputs, asOf }, days) => {
        const later = daysBefore(asOf, -days);
        const now = scoreFacility(inputs, asOf);
        const then = scoreFacility(inputs, later);
        return COMPONENTS.every((c) => then[c] >= now[c]);
      }),
      RUNS,
    );
  });
});

describe('clean record', () => {
  it('any facility with no violation, penalty or action in the windows scores 100 whatever else it reports', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const clean: ScoreInputs = {
          ...inputs,
          qtrs_with_nc: 0,
          history: inputs.history.replace(/[VS]/g, '_'),
          compliance_status: 'No Violation Identified',
          significant_violation: false,
          informal_action_count: 0,
          formal_action_count: 0,
          penalty_count: 0,
          total_penalties_usd: 0,
          last_penalty_usd: 0,
          date_last_penalty: null,
          date_last_formal_action: null,
          date_last_informal_action: null,
        };
        const r = scoreFacility(clean, asOf);
        return r.overall === 100 && r.active_enforcement === false;
      }),
      RUNS,
    );
  });
});
