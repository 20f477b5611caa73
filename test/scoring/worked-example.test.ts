import { describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainComponents } from '../../src/scoring/explain';
import type { ScoreInputs } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';

// Verbatim from /work/shared/data/echo_facility_search_sample.csv (real EPA ECHO facility-search
// download, line 1 and line 26): the worked example of docs/scoring.md.
const HEADER =
  'FacName,FacStreet,FacCity,FacState,RegistryID,Rdskey,Mfg0019,FacLat,FacLong,FacSNCFlg,FacQtrsWithNC,FacComplianceStatus,CAAComplianceStatus,CWAComplianceStatus,RCRAComplianceStatus,SDWAComplianceStatus,FacInspectionCount,FacPopDen,FacFormalActionCount,FacTotalPenalties,GHGCO2Releases,TRIReleasesTransfers,FacMapFlg,EjscreenFlagUs,PercentBelowLowincome3mile,PercentPeopleOfColor,DFR URL,';
const LINE =
  'STURM RUGER FIREARMS MANUFACTURING FACILITY,411 SUNAPEE STREET,NEWPORT,NH,1.1E+11,60201484,"4,783,889",43.379828,-72.152415,Y,11,Significant Violation,No Violation Identified,Failure to Report DMR - Not Received,No Violation Identified,,4,215.32,1,4255,,208050,Y,Y,34.11,9.68,https://echo.epa.gov/detailed-facility-report?fid=110000313964,';

/** Enough CSV for this line: quoted fields hold commas but no quotes. */
function cells(line: string): string[] {
  return [...line.matchAll(/("[^"]*"|[^,]*)(,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '')).slice(0, -1);
}

const row = Object.fromEntries(cells(HEADER).map((k, i) => [k, cells(LINE)[i] ?? '']));

/** The facility-search mapping docs/scoring.md describes: absent columns become '', 0 or null. */
const inputs: ScoreInputs = {
  qtrs_with_nc: Number(row.FacQtrsWithNC),
  history: '',
  compliance_status: row.FacComplianceStatus!,
  significant_violation: row.FacSNCFlg === 'Y',
  inspection_count: Number(row.FacInspectionCount),
  informal_action_count: 0,
  formal_action_count: Number(row.FacFormalActionCount),
  penalty_count: 0,
  total_penalties_usd: Number(row.FacTotalPenalties),
  last_penalty_usd: 0,
  date_last_penalty: null,
  date_last_formal_action: null,
  date_last_informal_action: null,
  date_last_inspection: null,
};

describe('worked example: STURM RUGER FIREARMS MANUFACTURING FACILITY, Newport NH (110000313964)', () => {
  const r = scoreFacility(inputs, '2024-06-30');

  it('reads the real row as 11 quarters, significant violation, 1 formal action, $4,255', () => {
    expect(row['DFR URL']).toEndWith('fid=110000313964');
    expect([inputs.qtrs_with_nc, inputs.significant_violation, inputs.formal_action_count, inputs.total_penalties_usd]).toEqual([11, true, 1, 4255]);
  });

  it('matches the hand arithmetic of docs/scoring.md', () => {
    // 15 - (11 x 1.25 + 1 x 1.25) = 0
    expect(r.violation_frequency).toBe(0);
    // 30 - (5 + 5 x log10(4255 / 1000)) = 30 - 8.14 = 21.86 -> 22
    expect(r.penalty_severity).toBe(22);
    // heaviest event: current significant violation, 20 at age 0 -> 25 - 20 = 5
    expect(r.recency).toBe(5);
    // one formal case: 15 - 3 = 12
    expect(r.repeat_offender).toBe(12);
    expect(r.overall).toBe(54);
    expect(r.active_enforcement).toBe(true);
  });

  it('is stated in docs/scoring.md with these numbers and explanation lines', () => {
    const doc = readFileSync(join(import.meta.dir, '../../docs/scoring.md'), 'utf8');
    expect(doc).toContain('overall = 15 + 0 + 22 + 5 + 12 = **54**');
    for (const line of Object.values(explainComponents(inputs, '2024-06-30'))) expect(doc).toContain(line);
  });
});
