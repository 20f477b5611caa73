import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { factsOf } from '../../src/scoring/facts';
import { BASELINE_POINTS, MAX_POINTS, PROGRAMS, type ProgramsInputs, type ScoreInputs, type ScoreResult } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { COMPONENTS, daysBefore, facilitySearchArb, oddScenarioArb, programArb, scenarioArb } from './arbitraries';

const RUNS = { numRuns: 400 };

/**
 * True when `after` answers an SNC that `before` left unanswered: a longer significant run starts
 * earlier, so an action dated since then can answer it, which rightly raises the score (the
 * enforcement-response properties cover that case).
 */
function answeredOnlyAfter(before: ScoreInputs, after: ScoreInputs, asOf: string): boolean {
  const b = factsOf(before, asOf), a = factsOf(after, asOf);
  return b.currentStatus === 'significant' && b.sncAnsweredBy === null && a.sncAnsweredBy !== null;
}

/** True when the inputs do not put the facility in significant non-compliance now. */
function notInSnc(inputs: ScoreInputs, asOf: string): boolean {
  return factsOf(inputs, asOf).currentStatus !== 'significant';
}

/** The same programs with nothing against them (status clean, zero counts and amounts, no dates). */
function cleanPrograms(programs: ProgramsInputs): ProgramsInputs {
  const out = { ...programs };
  for (const k of PROGRAMS) {
    const p = out[k];
    if (p) {
      const history = p.history === null ? null : p.history.replace(/[VS]/g, '_');
      out[k] = { ...p, status: 'No Violation Identified', significant: false, qtrs_with_nc: 0, formal_actions: 0, informal_actions: 0, penalties_usd: 0, last_penalty_usd: 0, last_penalty_date: null, last_formal_action_date: null, history, qncr_codes: p.qncr_codes === null ? null : '' };
    }
  }
  return out;
}

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
        const more = { ...inputs, qtrs_with_nc: Math.min(12, (inputs.qtrs_with_nc ?? 0) + k) };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  it('turning a history quarter from clean to violation, or violation to significant, never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(11), ({ inputs, asOf }, i) => {
        const h = (inputs.history ?? '').padEnd(12, '_');
        const worse = { ...inputs, history: h.slice(0, i) + (upgrade[h[i]!] ?? 'V') + h.slice(i + 1) };
        fc.pre(!answeredOnlyAfter({ ...inputs, history: h }, worse, asOf));
        return neverRaised(scoreFacility({ ...inputs, history: h }, asOf), scoreFacility(worse, asOf));
      }),
      RUNS,
    );
  });

  it('a current significant violation never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const base = { ...inputs, snc_flag: false };
        return neverRaised(scoreFacility(base, asOf), scoreFacility({ ...base, snc_flag: true }, asOf));
      }),
      RUNS,
    );
  });

  it('larger penalties (total, last amount or count) never raise a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 1e9 }), fc.nat(5), ({ inputs, asOf }, extra, n) => {
        const more: ScoreInputs = {
          ...inputs,
          total_penalties_usd: (inputs.total_penalties_usd ?? 0) + extra,
          last_penalty_usd: (inputs.last_penalty_usd ?? 0) + extra / 2,
          penalty_count: (inputs.penalty_count ?? 0) + n,
        };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  // for a facility in SNC a formal action dated in its run answers it: that case has its own properties (enforcement-response.test.ts)
  it('more informal actions never raise a component, nor more formal ones for a facility not in SNC', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(6), fc.nat(6), ({ inputs, asOf }, formal, informal) => {
        fc.pre(notInSnc(inputs, asOf) || formal === 0);
        const more = {
          ...inputs,
          formal_action_count: (inputs.formal_action_count ?? 0) + formal,
          informal_action_count: (inputs.informal_action_count ?? 0) + informal,
        };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  it('for a facility not in SNC, one more formal action dated at or before the as-of date never raises the score', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 1800 }), ({ inputs, asOf }, age) => {
        fc.pre(notInSnc(inputs, asOf));
        const date = daysBefore(asOf, age);
        const prev = inputs.date_last_formal_action;
        const more = { ...inputs, formal_action_count: (inputs.formal_action_count ?? 0) + 1, date_last_formal_action: prev && prev > date ? prev : date };
        return neverRaised(scoreFacility(inputs, asOf), scoreFacility(more, asOf));
      }),
      RUNS,
    );
  });

  // a more recent formal action can answer an SNC: that case has its own properties (enforcement-response.test.ts)
  it.each(['date_last_penalty', 'date_last_formal_action', 'date_last_informal_action'] as const)(
    'a more recent %s never raises a component (formal actions: for a facility not in SNC)',
    (field) => {
      fc.assert(
        fc.property(scenarioArb, fc.integer({ min: -400, max: 4000 }), fc.integer({ min: 1, max: 3000 }), ({ inputs, asOf }, older, step) => {
          if (field === 'date_last_formal_action') fc.pre(notInSnc(inputs, asOf));
          const earlier = { ...inputs, [field]: daysBefore(asOf, older) };
          const later = { ...inputs, [field]: daysBefore(asOf, older - step) };
          return neverRaised(scoreFacility(earlier, asOf), scoreFacility(later, asOf));
        }),
        RUNS,
      );
    },
  );

  it('the same data scored at a later as-of date never loses points when not in SNC (events only age)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 2000 }), ({ inputs, asOf }, days) => {
        // in SNC, a later as-of date lengthens nothing but can move an action out of the run's reach
        fc.pre(notInSnc(inputs, asOf));
        const later = daysBefore(asOf, -days);
        const now = scoreFacility(inputs, asOf);
        const then = scoreFacility(inputs, later);
        return COMPONENTS.every((c) => then[c] >= now[c]);
      }),
      RUNS,
    );
  });
});

describe('fcs-2.0: programs, SNC and enforcement', () => {
  const programArbs = (asOf: string) => programArb(asOf);

  it('a program record becoming significant (flag or status) never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant(s), programArbs(s.asOf), fc.constantFrom(...PROGRAMS))), ([{ inputs, asOf }, p, name]) => {
        const before = { ...inputs, programs: { ...inputs.programs, [name]: { ...p, significant: false, status: 'Violation Identified' } } };
        const after = { ...inputs, programs: { ...inputs.programs, [name]: { ...p, significant: true, status: 'Significant Violation' } } };
        fc.pre(!answeredOnlyAfter(before, after, asOf));
        return neverRaised(scoreFacility(before, asOf), scoreFacility(after, asOf));
      }),
      RUNS,
    );
  });

  it('significance in one more program never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant(s), programArbs(s.asOf), fc.constantFrom(...PROGRAMS))), ([{ inputs, asOf }, p, name]) => {
        fc.pre(inputs.programs[name] === null);
        const inSnc = { ...inputs, programs: { ...inputs.programs, [name]: { ...p, significant: true } } };
        const notIn = { ...inputs, programs: { ...inputs.programs, [name]: { ...p, significant: false, status: 'No Violation Identified', qtrs_with_nc: 0 } } };
        fc.pre(!answeredOnlyAfter(notIn, inSnc, asOf));
        return neverRaised(scoreFacility(notIn, asOf), scoreFacility(inSnc, asOf));
      }),
      RUNS,
    );
  });

  it('a larger or more recent program penalty never raises a component', () => {
    fc.assert(
      fc.property(
        scenarioArb.chain((s) => fc.tuple(fc.constant(s), programArbs(s.asOf), fc.constantFrom(...PROGRAMS))),
        fc.integer({ min: 1, max: 1e8 }),
        fc.integer({ min: 0, max: 1500 }),
        ([{ inputs, asOf }, p, name], extra, days) => {
          const base = { ...inputs, programs: { ...inputs.programs, [name]: p } };
          const prev = p.last_penalty_date;
          const recent = daysBefore(asOf, days);
          const worse = { ...p, penalties_usd: (p.penalties_usd ?? 0) + extra, last_penalty_date: prev && prev > recent ? prev : recent };
          return neverRaised(scoreFacility(base, asOf), scoreFacility({ ...inputs, programs: { ...inputs.programs, [name]: worse } }, asOf));
        },
      ),
      RUNS,
    );
  });

  it('a facility whose only evidence is an undated penalty (any amount) never scores below one in SNC today', () => {
    fc.assert(
      fc.property(scenarioArb, facilitySearchArb, fc.integer({ min: 1, max: 2e9 }), ({ inputs, asOf }, fs, amount) => {
        const snc = scoreFacility({ ...inputs, snc_flag: true }, asOf);
        const undatedOnly = scoreFacility({ ...fs.inputs, qtrs_with_nc: 0, compliance_status: 'No Violation Identified', snc_flag: false, formal_action_count: 0, total_penalties_usd: amount }, asOf);
        return undatedOnly.overall > snc.overall;
      }),
      RUNS,
    );
  });

  it('facility-search scenarios (nulls for absent columns) stay in bounds and deterministic', () => {
    fc.assert(fc.property(facilitySearchArb, ({ inputs, asOf }) => {
      checkBounds(scoreFacility(inputs, asOf));
      expect(scoreFacility(structuredClone(inputs), asOf)).toEqual(scoreFacility(inputs, asOf));
    }), RUNS);
  });
});

describe('clean record', () => {
  it('any facility with no violation, penalty or action in the windows scores 100 whatever else it reports', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const clean: ScoreInputs = {
          ...inputs,
          qtrs_with_nc: 0,
          history: inputs.history === null ? null : inputs.history.replace(/[VS]/g, '_'),
          compliance_status: 'No Violation Identified',
          snc_flag: false,
          programs_in_snc: 0,
          informal_action_count: 0,
          formal_action_count: 0,
          penalty_count: 0,
          total_penalties_usd: 0,
          last_penalty_usd: 0,
          date_last_penalty: null,
          date_last_formal_action: null,
          date_last_informal_action: null,
          federal_cases: 0,
          federal_penalties_usd: 0,
          date_last_federal_case: null,
          federal_case_ids: [],
          programs: cleanPrograms(inputs.programs),
        };
        const r = scoreFacility(clean, asOf);
        return r.overall === 100 && r.active_enforcement === false;
      }),
      RUNS,
    );
  });
});
