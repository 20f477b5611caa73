import fc from 'fast-check';
import type { ProgramInputs, ProgramsInputs, ScoreInputs } from '../../src/scoring/model';

const DAY_MS = 86_400_000;

/** ISO date `offsetDays` before `asOf` (negative: after it). */
export function daysBefore(asOf: string, offsetDays: number): string {
  return new Date(Date.parse(`${asOf}T00:00:00Z`) - offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/** As-of dates across two decades. */
export const asOfArb = fc
  .integer({ min: Date.UTC(2015, 0, 1) / DAY_MS, max: Date.UTC(2035, 11, 31) / DAY_MS })
  .map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10));

export const historyArb = fc
  .array(fc.constantFrom('_', '_', '_', 'V', 'S', 'U'), { minLength: 12, maxLength: 12 })
  .map((cs) => cs.join(''));

/** A program's quarterly history: 12 quarters (CAA, RCRA) or CWA's 13. */
const programHistoryArb = fc.array(fc.constantFrom('_', '_', '_', 'V', 'S', 'U'), { minLength: 12, maxLength: 13 }).map((cs) => cs.join(''));

export const statusArb = fc.constantFrom(
  'No Violation Identified',
  'Violation Identified',
  'Significant Violation',
  'Failure to Report DMR - Not Received',
  '',
  'Unknown',
);

/** null, or a date from 8 years before to 1 year after the as-of date. */
function dateArb(asOf: string) {
  return fc.option(fc.integer({ min: -365, max: 8 * 365 }).map((o) => daysBefore(asOf, o)), { nil: null });
}

/** Either a value or null (the source has no such column). */
const reported = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 5 });

/** One program's record as ingest reads it from the exporter (or, with nulls, from a facility-search file). */
export function programArb(asOf: string): fc.Arbitrary<ProgramInputs> {
  return fc.record({
    status: reported(statusArb),
    significant: reported(fc.boolean()),
    qtrs_with_nc: reported(fc.integer({ min: 0, max: 13 })),
    formal_actions: reported(fc.nat(6)),
    informal_actions: reported(fc.nat(10)),
    penalties_usd: reported(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000_000 }))),
    last_penalty_usd: reported(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000_000 }))),
    last_penalty_date: dateArb(asOf),
    last_formal_action_date: dateArb(asOf),
    history: reported(programHistoryArb),
    // CWA_3_YR_QNCR_CODES: empty cells are the common case; '2'/'B' are resolved pending
    qncr_codes: reported(fc.constantFrom('', '', '1', '2', 'B', '11112', 'S S 2', '3')),
  });
}

export function programsArb(asOf: string): fc.Arbitrary<ProgramsInputs> {
  const one = fc.option(programArb(asOf), { nil: null, freq: 2 });
  return fc.record({ caa: one, cwa: one, rcra: one, sdwa: one });
}

/** Well-formed inputs (as ingest produces them) paired with an as-of date they are measured against. */
export const scenarioArb = asOfArb.chain((asOf) =>
  fc.record({
    asOf: fc.constant(asOf),
    inputs: fc.record({
      qtrs_with_nc: fc.integer({ min: 0, max: 12 }),
      history: fc.oneof({ weight: 4, arbitrary: historyArb }, { weight: 1, arbitrary: fc.constantFrom('', null) }),
      compliance_status: statusArb,
      snc_flag: fc.boolean(),
      programs_in_snc: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) }),
      inspection_count: fc.nat(40),
      informal_action_count: fc.nat(20),
      formal_action_count: fc.nat(10),
      penalty_count: fc.nat(10),
      total_penalties_usd: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_000_000_000 })),
      last_penalty_usd: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000_000 })),
      date_last_penalty: dateArb(asOf),
      date_last_formal_action: dateArb(asOf),
      date_last_informal_action: dateArb(asOf),
      date_last_inspection: dateArb(asOf),
      federal_cases: reported(fc.nat(3)),
      federal_penalties_usd: reported(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000_000 }))),
      date_last_federal_case: dateArb(asOf),
      federal_case_ids: reported(fc.array(fc.constantFrom('04-2019-1234', '06-2021-0042', 'CWA-09-2020-0001'), { maxLength: 3 })),
      facility_active: reported(fc.boolean()),
      programs: programsArb(asOf),
      not_reported: fc.constant([]),
    }) as fc.Arbitrary<ScoreInputs>,
  }),
);

/** Scenarios as a facility-search download gives them: no dates, no history, no counts but formal actions. */
export const facilitySearchArb = scenarioArb.map(({ inputs, asOf }) => ({
  asOf,
  inputs: {
    ...inputs,
    history: null, informal_action_count: null, penalty_count: null, last_penalty_usd: null,
    date_last_penalty: null, date_last_formal_action: null, date_last_informal_action: null, date_last_inspection: null,
    programs_in_snc: null, federal_cases: null, federal_penalties_usd: null, date_last_federal_case: null, federal_case_ids: null, facility_active: null,
    programs: { caa: null, cwa: null, rcra: null, sdwa: null },
    not_reported: [
      'history', 'programs_in_snc', 'informal_action_count', 'penalty_count', 'last_penalty_usd', 'date_last_penalty', 'date_last_formal_action',
      'date_last_informal_action', 'date_last_inspection', 'federal_cases', 'federal_penalties_usd', 'date_last_federal_case', 'federal_case_ids', 'facility_active',
    ],
  } as ScoreInputs,
}));

const oddNumber = fc.oneof(
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, -0, 1e308, 0.5, 13, 1e12),
);
const oddDate = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.constantFrom('2024-02-30', '13/45/2020', '01/15/2024', '9999-12-31', '0001-01-01', '2020-01-01T00:00:00Z', ''),
);

/** Anything ingest might let through by mistake: NaN, negatives, Infinity, junk dates and history. */
export const oddScenarioArb = fc.record({
  asOf: asOfArb,
  inputs: fc.record({
    qtrs_with_nc: oddNumber,
    history: fc.oneof(fc.string({ maxLength: 20 }), historyArb.map((h) => h.toLowerCase()), fc.constant('VVVVSS')),
    compliance_status: fc.oneof(statusArb, fc.string()),
    snc_flag: fc.oneof(fc.boolean(), fc.constant(null), fc.anything()),
    programs_in_snc: oddNumber,
    inspection_count: oddNumber,
    informal_action_count: oddNumber,
    formal_action_count: oddNumber,
    penalty_count: oddNumber,
    total_penalties_usd: oddNumber,
    last_penalty_usd: oddNumber,
    date_last_penalty: oddDate,
    date_last_formal_action: oddDate,
    date_last_informal_action: oddDate,
    date_last_inspection: oddDate,
    federal_cases: oddNumber,
    federal_penalties_usd: oddNumber,
    date_last_federal_case: oddDate,
    federal_case_ids: fc.oneof(fc.constant(null), fc.string(), fc.array(fc.anything(), { maxLength: 3 })),
    facility_active: fc.anything(),
    programs: fc.oneof(fc.constant(null), fc.string(), fc.record({ caa: fc.anything(), cwa: fc.record({ status: fc.anything(), qtrs_with_nc: oddNumber, penalties_usd: oddNumber, last_penalty_date: oddDate, significant: fc.anything(), history: fc.anything(), qncr_codes: fc.anything() }) })),
    not_reported: fc.oneof(fc.constant(null), fc.array(fc.anything(), { maxLength: 3 })),
  }) as unknown as fc.Arbitrary<ScoreInputs>,
});

export const COMPONENTS = ['violation_frequency', 'penalty_severity', 'recency', 'repeat_offender'] as const;
