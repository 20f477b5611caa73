import { describe, expect, it } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { FacilityResponse } from '../../src/facilities/model';
import { latestActionOf } from '../../src/facilities/evidence';
import type { Evidence } from '../../src/index/evidence';
import { TIERS } from '../../src/tiers';
import { facility, inputsWith, json, makeWorld } from '../helpers';

// Rows as the exporter writes them (fictitious IDs): an empty cell is '' / [] / null, as ingest stores it.
const NONE: Evidence = {
  rcra_universes: [], caa_permit_types: '', tri_flag: false, tri_on_site_releases_lbs: null, tri_releases_transfers_lbs: null,
  ghg_co2_tonnes: null, caa_history: '', cwa_history: '', rcra_history: '', fec_case_ids: [], last_inspection_epa: null,
  air_ids: [], npdes_ids: [], rcra_ids: [], sdwa_ids: [], tri_ids: [],
  last_inspection_state: null, last_formal_action_epa: null, last_formal_action_state: null, last_informal_action_epa: null,
  last_informal_action_state: null,
};
const ENFORCED = facility({
  registry_id: '110000000101',
  score_inputs: inputsWith({ federal_cases: 2, federal_case_ids: ['05-2019-0042', '05-2021-0007'], date_last_federal_case: '2023-03-01' }),
  evidence: {
    ...NONE, rcra_universes: ['LQG'], caa_permit_types: 'Major', tri_flag: true, tri_on_site_releases_lbs: 18250.5, tri_releases_transfers_lbs: 40210,
    ghg_co2_tonnes: 512340, caa_history: '____VV_____S', cwa_history: '_____________', rcra_history: '___U________',
    fec_case_ids: ['05-2019-0042', '05-2021-0007'], last_formal_action_epa: '2023-03-01', last_formal_action_state: '2022-08-15',
    last_informal_action_state: '2024-01-10',
  },
});
const NEVER_INSPECTED = facility({ registry_id: '990000000102', score_inputs: inputsWith({ inspection_count: 0, date_last_inspection: null }), evidence: NONE });
const INACTIVE = facility({ registry_id: '990000000103', score_inputs: inputsWith({ facility_active: false }), evidence: NONE });

const INVENTED = facility({ ...ENFORCED, registry_id: '990000000104' });

const world = makeWorld({ rows: [ENFORCED, NEVER_INSPECTED, INACTIVE, INVENTED] });
const keys = Object.fromEntries(await Promise.all(TIERS.map(async (t) => [t, (await world.keyFor(t, { monthlyLimit: 1_000 })).key] as const)));
const lookup = async (id: string, tier: (typeof TIERS)[number], query = '?include=evidence') => {
  const body = await json(await world.call(`/api/v1/facility/${id}${query}`, { key: keys[tier] }));
  expect(Value.Check(FacilityResponse, body)).toBe(true);
  return body.data;
};

describe('evidence and data_completeness beside the score', () => {
  it.each(['starter', 'platform', 'enterprise'] as const)('%s: the evidence with case links, who acted last, TRI and GHG', async (tier) => {
    const data = await lookup(ENFORCED.registry_id, tier);
    expect(data.evidence).toEqual({
      quarter_history: { caa: '____VV_____S', cwa: '_____________', rcra: '___U________' },
      federal_cases: [
        { case_id: '05-2019-0042', url: 'https://echo.epa.gov/enforcement-case-report?id=05-2019-0042' },
        { case_id: '05-2021-0007', url: 'https://echo.epa.gov/enforcement-case-report?id=05-2021-0007' },
      ],
      // the state's informal action (2024-01-10) is later than EPA's formal one (2023-03-01)
      latest_action_by: 'state',
      latest_action_date: '2024-01-10',
      tri_on_site_releases_lbs: 18250.5,
      tri_releases_transfers_lbs: 40210,
      ghg_co2_tonnes: 512340,
    });
    expect(data.dfr_url).toBe('https://echo.epa.gov/detailed-facility-report?fid=110000000101');
    // the score is unchanged by the evidence: it stays the row's own
    expect(data.overall_score).toBe(ENFORCED.overall_score);
  });

  it('an ID ECHO cannot have (the sample\'s invented 99… IDs) gets no ECHO links: dfr_url and each case url are null', async () => {
    const data = await lookup(INVENTED.registry_id, 'starter');
    expect(data.dfr_url).toBeNull();
    expect(data.evidence.federal_cases).toEqual([
      { case_id: '05-2019-0042', url: null },
      { case_id: '05-2021-0007', url: null },
    ]);
  });

  it('Free: the evidence is redacted like programs, the DFR link and data_completeness are not', async () => {
    const data = await lookup(ENFORCED.registry_id, 'free');
    expect(data.evidence).toEqual(data.programs);
    expect(data.evidence).toEqual({ redacted: true, message: expect.stringContaining('evidence are available on the Starter plan') });
    expect(data.dfr_url).toBe('https://echo.epa.gov/detailed-facility-report?fid=110000000101');
    expect(data.data_completeness.source_format).toBe('echo-exporter');
    const text = JSON.stringify(data);
    for (const hidden of ['05-2019-0042', '18250.5', '512340', '____VV', 'points_lost', 'max_points']) expect(text).not.toContain(hidden);
  });

  it('a facility never inspected says so, on every tier', async () => {
    for (const tier of TIERS) expect((await lookup(NEVER_INSPECTED.registry_id, tier)).data_completeness.no_inspection_in_5_years).toBe(true);
    expect((await lookup(ENFORCED.registry_id, 'free')).data_completeness.no_inspection_in_5_years).toBe(false);
  });

  it('an inactive facility says so; an active one does not', async () => {
    expect((await lookup(INACTIVE.registry_id, 'free')).data_completeness.facility_inactive).toBe(true);
    expect((await lookup(NEVER_INSPECTED.registry_id, 'free')).data_completeness.facility_inactive).toBe(false);
  });

  it.each(TIERS)('%s: without include=evidence the lookup has no evidence field; the DFR link and data_completeness stay', async (tier) => {
    const data = await lookup(ENFORCED.registry_id, tier, '');
    expect('evidence' in data).toBe(false);
    expect(data.dfr_url).toBe('https://echo.epa.gov/detailed-facility-report?fid=110000000101');
    expect(data.data_completeness.source_format).toBe('echo-exporter');
    expect(JSON.stringify(data)).not.toContain('05-2021-0007');
  });

  it.each(['?include=programs', '?include=', '?include=evidence&include=x', '?include=EVIDENCE'])('%s: 422 naming include, not counted', async (query) => {
    const w = makeWorld({ rows: [ENFORCED] });
    const k = await w.keyFor('starter');
    const res = await w.call(`/api/v1/facility/${ENFORCED.registry_id}${query}`, { key: k.key });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toStartWith('include must be');
    expect(await w.store.monthlyUsage(k.accountId, w.clock())).toBe(0);
  });

  it('a facility with nothing reported: no case, no action, null releases', async () => {
    const data = await lookup(INACTIVE.registry_id, 'starter');
    expect(data.evidence).toMatchObject({ federal_cases: [], latest_action_by: null, tri_on_site_releases_lbs: null, ghg_co2_tonnes: null });
  });
});

describe('latestActionOf', () => {
  it('EPA when its latest action is the later one, and on a same-day tie', () => {
    expect(latestActionOf({ ...NONE, last_informal_action_epa: '2024-05-01', last_formal_action_state: '2023-01-01' })).toEqual({ by: 'EPA', date: '2024-05-01' });
    expect(latestActionOf({ ...NONE, last_formal_action_epa: '2024-05-01', last_formal_action_state: '2024-05-01' }).by).toBe('EPA');
    expect(latestActionOf({ ...NONE, last_formal_action_state: '2020-02-02' })).toEqual({ by: 'state', date: '2020-02-02' });
  });

  it('null when no action date is reported, not an inspection', () => {
    const inspectedOnly: Evidence = { ...NONE, last_inspection_epa: '2024-05-01' };
    expect(latestActionOf(inspectedOnly)).toEqual({ by: null, date: null });
  });
});

