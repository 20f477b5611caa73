import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { dataCompleteness } from '../../src/scoring/completeness';
import { factsOf } from '../../src/scoring/facts';
import { PROGRAMS, type ProgramInputs, type ProgramsInputs, type ScoreInputs, type ScoreResult } from '../../src/scoring/model';
import { DAYS_PER_MONTH } from '../../src/scoring/rules';
import { scoreFacility } from '../../src/scoring/score';
import { CLEAN_INPUTS } from '../helpers';
import { COMPONENTS, daysBefore, programArb, scenarioArb } from './arbitraries';

// The properties of score method fcs-4.0 (docs/scoring.md): the violation is the harm, enforcement the
// response. Each is a one-input pair: the same facility with one thing changed.
const RUNS = { numRuns: 400 };

/** The same programs with no formal action in the window and no "resolved pending" code. */
function programsWithoutActions(programs: ProgramsInputs, old: string | null): ProgramsInputs {
  const out = { ...programs };
  for (const k of PROGRAMS) {
    const p = out[k];
    if (p) out[k] = { ...p, formal_actions: 0, last_formal_action_date: old, qncr_codes: p.qncr_codes === null ? null : '' };
  }
  return out;
}

/** The facility in SNC now with no formal action or federal case in the window (blank or pre-window dates): unanswered. */
function unansweredSnc(inputs: ScoreInputs, asOf: string, oldDate: boolean): ScoreInputs {
  const old = oldDate ? daysBefore(asOf, 6 * 365) : null;
  return {
    ...inputs, snc_flag: true, formal_action_count: 0, date_last_formal_action: old, federal_cases: 0, federal_case_ids: [], date_last_federal_case: null,
    programs: programsWithoutActions(inputs.programs, old),
  };
}

/** Days from the as-of date back to the first quarter of the current significant run. */
function runStartDays(inputs: ScoreInputs, asOf: string): number {
  return Math.floor(3 * factsOf(inputs, asOf).sncRunQuarters * DAYS_PER_MONTH);
}

/** `inputs` with one more formal action dated `date`, carrying a penalty of `usd` (0: none). */
function withAction(inputs: ScoreInputs, date: string, usd: number): ScoreInputs {
  const out: ScoreInputs = { ...inputs, formal_action_count: (inputs.formal_action_count ?? 0) + 1, date_last_formal_action: date };
  if (usd > 0) {
    Object.assign(out, { penalty_count: (inputs.penalty_count ?? 0) + 1, total_penalties_usd: (inputs.total_penalties_usd ?? 0) + usd, last_penalty_usd: usd, date_last_penalty: date });
  }
  return out;
}

/** A clean record but for what a scenario reports beside it (inspections, active flag, programs cleaned). */
function cleanBase(inputs: ScoreInputs): ScoreInputs {
  const programs = { ...inputs.programs };
  for (const k of PROGRAMS) {
    const p = programs[k];
    if (p) programs[k] = { ...p, status: 'No Violation Identified', significant: false, qtrs_with_nc: 0, formal_actions: 0, informal_actions: 0, penalties_usd: 0, last_penalty_usd: 0, last_penalty_date: null, last_formal_action_date: null, history: p.history === null ? null : '_'.repeat(p.history.length), qncr_codes: p.qncr_codes === null ? null : '', effluent_exceedances: 0 };
  }
  return { ...CLEAN_INPUTS, inspection_count: inputs.inspection_count, date_last_inspection: inputs.date_last_inspection, facility_active: inputs.facility_active, programs };
}

/** A new (one-quarter) or longer unanswered SNC on a base: the last `quarters` of the history significant. */
function sncFor(base: ScoreInputs, quarters: number): ScoreInputs {
  return { ...base, qtrs_with_nc: quarters, history: '_'.repeat(12 - quarters) + 'S'.repeat(quarters), compliance_status: 'Significant Violation', programs_in_snc: 1 };
}

const overall = (i: ScoreInputs, asOf: string) => scoreFacility(i, asOf).overall;
function neverRaised(before: ScoreResult, after: ScoreResult): boolean {
  return COMPONENTS.every((c) => after[c] <= before[c]) && after.overall <= before.overall;
}

describe('the violation is the harm, enforcement the response', () => {
  it('an SNC answered by a formal action dated on or after the first quarter of its run, with any penalty, never scores below the same SNC unanswered', () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2e9 })), fc.boolean(), ({ inputs, asOf }, at, usd, oldDate) => {
        const unanswered = unansweredSnc(inputs, asOf, oldDate);
        expect(factsOf(unanswered, asOf).sncAnsweredBy).toBeNull();
        const answered = withAction(unanswered, daysBefore(asOf, Math.floor(at * runStartDays(unanswered, asOf))), usd);
        expect(factsOf(answered, asOf).sncAnsweredBy).toBe('formal_action');
        expect(overall(answered, asOf)).toBeGreaterThanOrEqual(overall(unanswered, asOf));
        expect(scoreFacility(answered, asOf).active_enforcement_basis).toBe('snc_answered');
      }),
      RUNS,
    );
  });

  it('so does one answered by a federal case dated in the run, whatever its penalties', () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 2e9 }), ({ inputs, asOf }, at, usd) => {
        const unanswered = unansweredSnc(inputs, asOf, false);
        const date = daysBefore(asOf, Math.floor(at * runStartDays(unanswered, asOf)));
        const answered = { ...unanswered, federal_cases: 1, federal_case_ids: ['06-2025-0001'], date_last_federal_case: date, federal_penalties_usd: usd };
        expect(overall(answered, asOf)).toBeGreaterThanOrEqual(overall(unanswered, asOf));
      }),
      RUNS,
    );
  });

  it('an action dated before the current significant run began does not answer it, and never raises the score', () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 1e8 }), ({ inputs, asOf }, at, usd) => {
        const unanswered = unansweredSnc(inputs, asOf, false);
        const start = runStartDays(unanswered, asOf);
        const windowDays = Math.floor(60 * DAYS_PER_MONTH);
        const before = withAction(unanswered, daysBefore(asOf, start + 2 + Math.floor(at * (windowDays - start - 2))), usd);
        expect(factsOf(before, asOf).sncAnsweredBy).toBeNull();
        expect(scoreFacility(before, asOf).active_enforcement_basis).not.toBe('snc_answered');
        expect(overall(before, asOf)).toBeLessThanOrEqual(overall(unanswered, asOf));
      }),
      RUNS,
    );
  });

  it('an undated formal action does not answer an SNC either (nothing shows it came after)', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const unanswered = unansweredSnc(inputs, asOf, false);
        const undated = { ...unanswered, formal_action_count: 1 };
        expect(factsOf(undated, asOf).sncAnsweredBy).toBeNull();
        expect(overall(undated, asOf)).toBeLessThanOrEqual(overall(unanswered, asOf));
      }),
      RUNS,
    );
  });

  it('an unanswered SNC never costs less for a longer run of significant quarters, and costs more on a clean record', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 11 }), ({ inputs, asOf }, quarters) => {
        const base = unansweredSnc({ ...inputs, programs: cleanBase(inputs).programs }, asOf, false);
        const shorter = { ...base, history: (base.history ?? '').padEnd(12, '_').slice(0, 12 - quarters - 1) + '_' + 'S'.repeat(quarters) };
        const longer = { ...shorter, history: shorter.history.slice(0, 12 - quarters - 1) + 'S'.repeat(quarters + 1) };
        fc.pre(factsOf(longer, asOf).sncAnsweredBy === null);
        expect(neverRaised(scoreFacility(shorter, asOf), scoreFacility(longer, asOf))).toBe(true);
        const clean = cleanBase(inputs);
        expect(overall(sncFor(clean, quarters + 1), asOf)).toBeLessThan(overall(sncFor(clean, quarters), asOf));
      }),
      RUNS,
    );
  });
});

describe('recency by size', () => {
  const lastMonth = (asOf: string) => daysBefore(asOf, 30);

  it('an informal action or a penalty under $5,000 last month costs less than a new unanswered SNC', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 4999 }), ({ inputs, asOf }, usd) => {
        const base = cleanBase(inputs);
        const snc = overall(sncFor(base, 1), asOf);
        expect(overall({ ...base, informal_action_count: 1, date_last_informal_action: lastMonth(asOf) }, asOf)).toBeGreaterThan(snc);
        expect(overall(withAction(base, lastMonth(asOf), usd), asOf)).toBeGreaterThan(snc);
        expect(overall({ ...base, penalty_count: 1, total_penalties_usd: usd, last_penalty_usd: usd, date_last_penalty: lastMonth(asOf) }, asOf)).toBeGreaterThan(snc);
      }),
      RUNS,
    );
  });

  it('a $1,000,000 case last month (formal action or federal case) costs no more than three years of unanswered SNC', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const base = cleanBase(inputs);
        const chronic = overall(sncFor(base, 12), asOf);
        expect(overall(withAction(base, lastMonth(asOf), 1e6), asOf)).toBeGreaterThanOrEqual(chronic);
        expect(overall({ ...base, federal_cases: 1, federal_case_ids: ['06-2025-0001'], federal_penalties_usd: 1e6, date_last_federal_case: lastMonth(asOf) }, asOf)).toBeGreaterThanOrEqual(chronic);
      }),
      RUNS,
    );
  });

  it('a larger last penalty on the same date never raises a component', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 1e8 }), fc.integer({ min: 1, max: 1e8 }), fc.integer({ min: 0, max: 1800 }), ({ inputs, asOf }, usd, more, age) => {
        const date = daysBefore(asOf, age);
        const smaller = { ...inputs, last_penalty_usd: usd, date_last_penalty: date };
        return neverRaised(scoreFacility(smaller, asOf), scoreFacility({ ...smaller, last_penalty_usd: usd + more }, asOf));
      }),
      RUNS,
    );
  });
});

describe('effluent before paperwork (CWA_13QTRS_EFFLNT_EXCEEDANCES)', () => {
  const withCwa = (inputs: ScoreInputs, cwa: ProgramInputs) => ({ ...inputs, programs: { ...inputs.programs, cwa } });

  it('more effluent exceedances never raise a component', () => {
    fc.assert(
      fc.property(scenarioArb.chain((s) => fc.tuple(fc.constant(s), programArb(s.asOf))), fc.nat(200), fc.integer({ min: 1, max: 200 }), ([{ inputs, asOf }, p], e, more) => {
        const fewer = withCwa(inputs, { ...p, effluent_exceedances: e });
        return neverRaised(scoreFacility(fewer, asOf), scoreFacility(withCwa(inputs, { ...p, effluent_exceedances: e + more }), asOf));
      }),
      RUNS,
    );
  });

  it('a CWA SNC with no exceedances (a reporting violation) scores above the same SNC with them, answered or not', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 500 }), fc.boolean(), ({ inputs, asOf }, quarters, e, answered) => {
        const snc = sncFor(cleanBase(inputs), quarters);
        const cwa = (effluent: number): ProgramInputs => ({
          status: 'Significant Violation', significant: true, qtrs_with_nc: quarters, formal_actions: 0, informal_actions: 0, penalties_usd: 0, last_penalty_usd: 0,
          last_penalty_date: null, last_formal_action_date: null, history: snc.history, qncr_codes: '', effluent_exceedances: effluent,
        });
        const act = (i: ScoreInputs) => (answered ? withAction(i, daysBefore(asOf, 20), 10_000) : i);
        expect(overall(act(withCwa(snc, cwa(0))), asOf)).toBeGreaterThan(overall(act(withCwa(snc, cwa(e))), asOf));
      }),
      RUNS,
    );
  });
});

describe('active_enforcement: an action in the last 12 months, or an SNC being addressed', () => {
  it('is true for a formal action dated in the 12 months before the as-of date, whatever else (recent_action, or snc_answered when it answers an SNC)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: -30, max: 365 }), ({ inputs, asOf }, age) => {
        const latest = [inputs.date_last_formal_action, ...PROGRAMS.map((k) => inputs.programs[k]?.last_formal_action_date ?? null)];
        const date = daysBefore(asOf, age);
        fc.pre(latest.every((d) => d === null || d <= date));
        const acted = { ...inputs, date_last_formal_action: date };
        const r = scoreFacility(acted, asOf);
        expect([r.active_enforcement, r.active_enforcement_basis]).toEqual([true, ['formal_action', 'federal_case'].includes(factsOf(acted, asOf).sncAnsweredBy ?? '') ? 'snc_answered' : 'recent_action']);
      }),
      RUNS,
    );
  });

  it('is false for a facility not in SNC whose actions are all dated more than 12 months back or undated, whatever their counts', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 367, max: 4000 }), fc.nat(5), ({ inputs, asOf }, age, n) => {
        const old = daysBefore(asOf, age);
        const quiet: ScoreInputs = {
          ...inputs, snc_flag: false, programs_in_snc: 0, compliance_status: 'Violation Identified', history: (inputs.history ?? '').replace(/S/g, 'V'),
          formal_action_count: n, date_last_formal_action: old, date_last_federal_case: null, federal_cases: n, federal_case_ids: ['06-2020-0001'],
          programs: cleanBase(inputs).programs,
        };
        const r = scoreFacility(quiet, asOf);
        expect([r.active_enforcement, r.active_enforcement_basis]).toEqual([false, null]);
      }),
      RUNS,
    );
  });

  it('an undated federal case number alone never turns it on', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const without = { ...inputs, federal_case_ids: [], federal_cases: 0, date_last_federal_case: null };
        const withIds = { ...without, federal_case_ids: ['06-2024-0042', 'CWA-09-2020-0001'] };
        expect(scoreFacility(withIds, asOf).active_enforcement).toBe(scoreFacility(without, asOf).active_enforcement);
      }),
      RUNS,
    );
  });

  it('every unanswered SNC reads false unless an action is dated in the last 12 months', () => {
    fc.assert(
      fc.property(scenarioArb, fc.boolean(), ({ inputs, asOf }, oldDate) => {
        const r = scoreFacility(unansweredSnc(inputs, asOf, oldDate), asOf);
        expect(r.active_enforcement).toBe(false);
      }),
      RUNS,
    );
  });
});

describe('enough data to judge', () => {
  it('an inactive facility is never sufficient, whatever its record', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const c = dataCompleteness(factsOf({ ...inputs, facility_active: false }, asOf), 'echo-exporter');
        expect(c.sufficient).toBe(false);
        expect(c.insufficient_reasons).toContain('inactive');
      }),
      RUNS,
    );
  });

  it('no inspection in 5 years and 12 unknown quarters is not sufficient; one known quarter or one inspection makes it so (active)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(11), ({ inputs, asOf }, i) => {
        const blind: ScoreInputs = { ...inputs, facility_active: true, inspection_count: 0, date_last_inspection: null, history: 'UUUUUUUUUUUU', programs: { caa: null, cwa: null, rcra: null, sdwa: null } };
        expect(dataCompleteness(factsOf(blind, asOf), 'echo-exporter').insufficient_reasons).toEqual(['no_inspection_or_known_quarter']);
        const known = { ...blind, history: `${'U'.repeat(i)}_${'U'.repeat(11 - i)}` };
        expect(dataCompleteness(factsOf(known, asOf), 'echo-exporter').sufficient).toBe(true);
        expect(dataCompleteness(factsOf({ ...blind, inspection_count: 1 }, asOf), 'echo-exporter').sufficient).toBe(true);
      }),
      RUNS,
    );
  });
});
