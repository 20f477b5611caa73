import type { Evidence } from '../../src/index/evidence';
import type { DataCompleteness } from '../../src/scoring/completeness';
import type { ScorePoint } from '../../src/history/score-series';
import type { FacilityDetail } from '../../src/index/facility-index';
import type { IndexInfo } from '../../src/index/model';
import type { ProgramInputs } from '../../src/scoring/model';
import { CLEAN_INPUTS, facility } from '../helpers';

/**
 * The most a dossier can have to print: a name long enough for the smallest type and four lines,
 * a character the font cannot show (so the note about it prints), two address lines, every component with a two-line reason, open enforcement, a full quarterly
 * history, all four programs with the longest line each can make, 26 releases in the chart (the
 * most `scoreSeries` keeps), two source files and the fictitious banner. It must still fit two pages.
 */
const program = (status: string): ProgramInputs => ({
  status,
  significant: true,
  qtrs_with_nc: 12,
  formal_actions: 14,
  informal_actions: 37,
  penalties_usd: 12_345_678,
  last_penalty_usd: 2_345_678,
  last_penalty_date: '2026-09-30',
  last_formal_action_date: '2026-10-01',
  history: 'SSSSVVVVUUUSS',
  qncr_codes: 'BBBBBBBBBBBBB',
});

/** Every evidence field at its longest: all universes, 13-quarter histories, many federal cases, both agencies' dates. */
export const FULLEST_EVIDENCE: Evidence = {
  rcra_universes: ['TSDF', 'LQG', 'SQG', 'CESQG', 'VSQG', 'TRANSPORTER'],
  caa_permit_types: 'Major, Title V Permit, Synthetic Minor, Operating Permit (Federally Enforceable State Operating Permit)',
  tri_flag: true,
  tri_on_site_releases_lbs: 123_456_789.5,
  tri_releases_transfers_lbs: 987_654_321.25,
  ghg_co2_tonnes: 12_345_678.9,
  caa_history: 'SSSSVVVVUUUU',
  cwa_history: 'SVSVSVSVSVSVS',
  rcra_history: 'UUUUVVVVSSSS',
  fec_case_ids: Array.from({ length: 24 }, (_, i) => `06-${String(2001 + i).padStart(4, '0')}-${String(1000 + i * 37)}`),
  air_ids: ['TX0000004820100001', 'TX0000004820100002'], npdes_ids: ['TX0123456'], rcra_ids: ['TXD000123456'], sdwa_ids: ['TX1010013'], tri_ids: ['77536SHLLD5900H'],
  last_inspection_epa: '2026-10-01', last_inspection_state: '2026-10-01',
  last_formal_action_epa: '2026-09-30', last_formal_action_state: '2026-10-01',
  last_informal_action_epa: '2026-10-15', last_informal_action_state: '2024-01-02',
};

/** Every completeness note at once, the longest list of missing inputs included. */
export const FULLEST_COMPLETENESS: DataCompleteness = {
  source_format: 'echo-facility-search',
  inputs_missing: ['history', 'programs_in_snc', 'penalty_count', 'date_last_formal_action', 'date_last_informal_action', 'date_last_inspection', 'federal_cases', 'federal_penalties_usd', 'date_last_federal_case', 'federal_case_ids', 'facility_active'],
  undated_events: ['formal_action', 'federal_case', 'penalty', 'informal_action'],
  events_before_window: ['formal_action', 'federal_case', 'penalty', 'informal_action'],
  no_inspection_in_5_years: true,
  facility_inactive: true,
  unknown_quarters: 13,
  sufficient: false,
  insufficient_reasons: ['inactive', 'no_inspection_or_known_quarter'],
};

export const FULLEST_ROW: FacilityDetail = {
  evidence: FULLEST_EVIDENCE,
  data_completeness: FULLEST_COMPLETENESS,
  active_enforcement_basis: 'snc_answered',
  ...facility({
    registry_id: '990000999999',
    fac_name: '東 CONSOLIDATED AMALGAMATED PETROCHEMICAL REFINING, STORAGE, TRANSPORT AND WASTEWATER TREATMENT COMPANY OF THE GREATER SOUTHWESTERN GULF COAST REGION, INCORPORATED (FICTITIOUS) DIVISION NUMBER SEVENTEEN NORTH',
    fac_street: '12345 INDUSTRIAL PARKWAY NORTHWEST, BUILDING 7, SUITE 1200',
    fac_city: 'NORTH SOUTHWESTERN HEIGHTS',
    fac_state: 'TX',
    fac_zip: '77002-1234',
    fac_naics: '324110',
    overall_score: 15,
    active_enforcement: true,
    violation_frequency: 0,
    penalty_severity: 0,
    recency: 0,
    repeat_offender: 0,
    score_inputs: {
      ...CLEAN_INPUTS,
      qtrs_with_nc: 12,
      history: 'SSSSVVVVUUUS',
      compliance_status: 'Significant Violation/High Priority Violation',
      snc_flag: true,
      programs_in_snc: 4,
      inspection_count: 123,
      informal_action_count: 45,
      formal_action_count: 67,
      penalty_count: 89,
      total_penalties_usd: 123_456_789,
      last_penalty_usd: 12_345_678,
      date_last_penalty: '2026-09-30',
      date_last_formal_action: '2026-10-01',
      date_last_informal_action: '2026-10-02',
      date_last_inspection: '2026-10-03',
      federal_cases: 12,
      federal_penalties_usd: 98_765_432,
      date_last_federal_case: '2026-08-31',
      programs: { caa: program('High Priority Violation'), cwa: program('Significant Violation'), rcra: program('Significant Violation'), sdwa: program('Serious Violator') },
    },
  }),
  peers: { naics: '324110', naics_digits: 6, peer_count: 1_234_567, percentile: 0, percentile_note: null, median_score: 88, share_scoring_better: 0.9999, share_tied: 0.0001 },
};

export const FULLEST_INFO: IndexInfo = {
  dataset_name: 'FICTITIOUS national-size sample of invented facilities for layout tests (generator seed layout-v1), not EPA data',
  as_of: '2026-10-31',
  facility_count: 3_200_000,
  facilities_without_location: 6_400,
  score_version: 'fcs-2.0',
  fictitious: true,
  built_at: '2026-11-01T00:00:00Z',
  sources: [
    { name: 'echo-exporter-national-2026-10-31.csv.gz', sha256: 'ab'.repeat(32) },
    { name: 'echo-facility-search-national-2026-10-31.csv.gz', sha256: 'cd'.repeat(32) },
  ],
  row_counts: { accepted: 3_200_000 },
};

/** 26 weekly releases, the score moving each week. */
export const FULLEST_HISTORY: ScorePoint[] = Array.from({ length: 26 }, (_, i) => ({
  as_of: new Date(Date.UTC(2026, 4, 9) + i * 7 * 86_400_000).toISOString().slice(0, 10),
  overall_score: i === 5 ? null : 15 + ((i * 37) % 70),
}));
