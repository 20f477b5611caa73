import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { readHeader } from '../../src/ingest/columns';
import { EXPORTER_COLUMNS_2025 } from '../../src/ingest/exporter-columns';
import { mapRow, type MappedRow, type Rejection } from '../../src/ingest/row-mapper';
import { explainComponents, explanationLines } from '../../src/scoring/explain';
import { factsOf } from '../../src/scoring/facts';
import type { ScoreInputs } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { exporterRow } from '../ingest/support';
import { scenarioArb } from './arbitraries';
import { RecordCells } from '../../src/ingest/record-cells';

// Exporter rows as EPA writes them (see ../shared data notes in docs/scoring.md): counts cover 5 years,
// DATE_LAST_* and LAST_PENALTY_AMT are the latest event ever, FAC_PROGRAMS_WITH_SNC is a count.
// Each case changes one input of a clean row and goes through the real header and row mapper.
const AS_OF = '2026-10-31';
const header = readHeader([...EXPORTER_COLUMNS_2025]);
type Overrides = Parameters<typeof exporterRow>[0];
const CLEAN: Overrides = {
  FAC_PROGRAMS_WITH_SNC: '0', FAC_ACTIVE_FLAG: 'Y', FAC_INFORMAL_COUNT: '0', FAC_FORMAL_ACTION_COUNT: '0', FAC_PENALTY_COUNT: '0', FAC_TOTAL_PENALTIES: '0',
};
function inputsOf(overrides: Overrides): ScoreInputs {
  const row = exporterRow({ ...CLEAN, ...overrides }) as Record<string, string | undefined>;
  const m = mapRow(RecordCells.of(EXPORTER_COLUMNS_2025.map((c) => row[c] ?? '')), header);
  if (!('inputs' in m)) throw new Error(`rejected: ${(m as Rejection).detail}`);
  return (m as MappedRow).inputs;
}
const score = (o: Overrides) => scoreFacility(inputsOf(o), AS_OF);
const why = (o: Overrides) => explainComponents(inputsOf(o), AS_OF);
const points = (o: Overrides) => {
  const r = score(o);
  return [r.violation_frequency, r.penalty_severity, r.recency, r.repeat_offender, r.overall];
};
/** MM/DD/YYYY `months` (of 30.4375 days) before the as-of date. */
function monthsBack(months: number): string {
  const d = new Date(Date.parse(`${AS_OF}T00:00:00Z`) - Math.round(months * 30.4375) * 86_400_000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

describe('FAC_PROGRAMS_WITH_SNC is a count of programs in SNC', () => {
  it('a clean row with 0 scores exactly as with a blank cell: 100, no enforcement, no significant quarter invented', () => {
    for (const cell of ['0', '']) {
      const r = score({ FAC_PROGRAMS_WITH_SNC: cell });
      expect([r.overall, r.active_enforcement]).toEqual([100, false]);
      expect(why({ FAC_PROGRAMS_WITH_SNC: cell }).violation_frequency).toBe('No quarter in violation in the last 12 quarters (3 years)');
    }
    expect(score({ FAC_PROGRAMS_WITH_SNC: '0' })).toEqual({ ...score({ FAC_PROGRAMS_WITH_SNC: '' }), score_hash: score({ FAC_PROGRAMS_WITH_SNC: '0' }).score_hash });
  });

  it('a count above 0 is significant non-compliance now', () => {
    expect(factsOf(inputsOf({ FAC_PROGRAMS_WITH_SNC: '2' }), AS_OF).currentStatus).toBe('significant');
    expect(factsOf(inputsOf({ FAC_PROGRAMS_WITH_SNC: '0' }), AS_OF).currentStatus).toBe('none');
  });
});

describe('an event dated before the 5-year window costs nothing and is not called recent', () => {
  it('a $1,000,000 penalty from 2012 with a 5-year total of 0 leaves the score at 100', () => {
    const old = { FAC_LAST_PENALTY_AMT: '1000000', FAC_DATE_LAST_PENALTY: '05/01/2012' };
    expect(points(old)).toEqual([15, 30, 25, 15, 100]);
    const e = why(old);
    expect(e.penalty_severity).toBe('No penalties in the last 5 years (the latest on record, on 2012-05-01, is older)');
    for (const line of Object.values(e)) expect(line).not.toContain('$1,000,000');
  });

  it('the same penalty as a program record (CWA_LAST_PENALTY_AMT, 2012) costs nothing either', () => {
    expect(points({ NPDES_FLAG: 'Y', CWA_COMPLIANCE_STATUS: 'No Violation Identified', CWA_LAST_PENALTY_AMT: '1000000', CWA_LAST_PENALTY_DATE: '05/01/2012' })).toEqual([15, 30, 25, 15, 100]);
  });

  it('a formal action dated 2015 with a count of 0 costs nothing and is not open', () => {
    const r = score({ FAC_DATE_LAST_FORMAL_ACTION: '03/15/2015' });
    expect([r.repeat_offender, r.overall, r.active_enforcement]).toEqual([15, 100, false]);
    expect(why({ FAC_DATE_LAST_FORMAL_ACTION: '03/15/2015' }).repeat_offender).toBe('No enforcement actions in the last 5 years (the latest formal action on record, on 2015-03-15, is older)');
  });

  it('an informal action from 2016 with a count of 0 costs nothing', () => {
    expect(points({ FAC_DATE_LAST_INFORMAL_ACTION: '07/01/2016' })).toEqual([15, 30, 25, 15, 100]);
  });

  it('a federal case from 2010 (FEC_CASE_IDS, its date before the window) is not a 5-year case', () => {
    const r = score({ FEC_CASE_IDS: '06-2010-0042', FEC_NUMBER_OF_CASES: '1', FEC_LAST_CASE_DATE: '02/01/2010', FEC_TOTAL_PENALTIES: '250000' });
    expect([r.penalty_severity, r.repeat_offender, r.overall, r.active_enforcement]).toEqual([30, 15, 100, false]);
  });

  it('an event inside the window still counts: the same penalty dated 2024 costs 30 - 5 - 15 = 10, and (10 + 5 x log10 200) x (1 - 24.02/60) = 12.9 of recency', () => {
    const r = score({ FAC_PENALTY_COUNT: '1', FAC_TOTAL_PENALTIES: '1000000', FAC_LAST_PENALTY_AMT: '1000000', FAC_DATE_LAST_PENALTY: '10/31/2024' });
    expect(r.penalty_severity).toBe(10);
    expect(r.recency).toBe(12);
  });
});

describe('undated events are counted without an invented date', () => {
  it('a formal action counted in the 5 years with no date costs repeat 3, no recency, and is not active enforcement (no date, no claim)', () => {
    const r = score({ FAC_FORMAL_ACTION_COUNT: '1' });
    expect([r.recency, r.repeat_offender, r.active_enforcement]).toEqual([25, 12, false]);
    expect(why({ FAC_FORMAL_ACTION_COUNT: '1' }).recency).toBe('No dated violation, enforcement action or penalty in the last 5 years; the formal action has no date in the file, so it does not count here');
  });
});

describe('U quarters are unknown, not clean', () => {
  it('scores nothing against them, but says how many quarters have no determined status', () => {
    const u = { FAC_3YR_COMPLIANCE_HISTORY: '____UUU_____' };
    expect(points(u)).toEqual([15, 30, 25, 15, 100]);
    expect(why(u).violation_frequency).toBe('No violation in the 9 of the last 12 quarters with a known status; 3 quarters have no determined status');
    expect(factsOf(inputsOf(u), AS_OF).unknownQuarters).toBe(3);
  });

  it('names them beside violations too', () => {
    expect(why({ FAC_3YR_COMPLIANCE_HISTORY: 'U__________V', FAC_QTRS_WITH_NC: '1' }).violation_frequency).toBe('1 of the last 12 quarters in violation; 1 quarter has no determined status');
  });
});

describe("CWA's 13-quarter history is read as 13 quarters", () => {
  const cwa = (history: string, qtrs: string): Overrides => ({ NPDES_FLAG: 'Y', CWA_COMPLIANCE_STATUS: 'No Violation Identified', CWA_13QTRS_COMPL_HISTORY: history, CWA_QTRS_WITH_NC: qtrs });

  it('keeps all 13 characters, and a 13-quarter count is accepted, not rejected', () => {
    const i = inputsOf(cwa('VVVVVVVVVVVVV', '13'));
    expect(i.programs.cwa?.history).toBe('VVVVVVVVVVVVV');
    expect(i.programs.cwa?.qtrs_with_nc).toBe(13);
    // the facility measure covers 12 quarters: 13 fill it
    expect(factsOf(i, AS_OF).quartersInViolation).toBe(12);
  });

  it('dates a violation in the latest of the 13 quarters at the data date, and one in the oldest 36 months back', () => {
    expect(score(cwa('____________V', '1')).recency).toBe(10); // 25 - 15
    expect(why(cwa('____________V', '1')).recency).toBe('Violation in the latest quarter, per the quarterly history under the Clean Water Act (data date 2026-10-31)');
    expect(score(cwa('V____________', '1')).recency).toBe(25); // 15 x (1 - 36/36) = 0
  });

  it("counts for the facility's 12 quarters only the latest 12 of CWA's 13: a violation in the oldest is outside them", () => {
    expect(score(cwa('V____________', '1')).violation_frequency).toBe(15);
    expect(score(cwa('____________V', '1')).violation_frequency).toBe(14); // 15 - 1.25
    expect(inputsOf(cwa('V____________', '1')).programs.cwa?.qtrs_with_nc).toBe(1); // the program's own count stays whole
  });

  it('rejects a program history that is not quarters (as the facility history is)', () => {
    const row = exporterRow({ ...CLEAN, ...cwa('__X__________', '0') }) as Record<string, string | undefined>;
    expect((mapRow(RecordCells.of(EXPORTER_COLUMNS_2025.map((c) => row[c] ?? '')), header) as Rejection).reason).toBe('bad_history');
  });
});

describe('CAA "High Priority Violation" in a file without an HPV flag column', () => {
  const fsHeader = readHeader(['RegistryID', 'FacLat', 'FacLong', 'FacSNCFlg', 'FacQtrsWithNC', 'FacComplianceStatus', 'CAAComplianceStatus', 'FacFormalActionCount', 'FacTotalPenalties']);
  const fsRow = (caa: string) => mapRow(RecordCells.of(['990000000009', '40.1', '-75.2', 'N', '1', 'Violation Identified', caa, '0', '0']), fsHeader) as MappedRow;

  it('is significant non-compliance, under the Clean Air Act', () => {
    const i = fsRow('High Priority Violation').inputs;
    expect(i.programs.caa?.significant).toBe(true);
    const f = factsOf(i, AS_OF);
    expect([f.currentStatus, f.programsSignificant]).toEqual(['significant', ['caa']]);
  });

  it('while a plain "Violation Identified" is not', () => {
    expect(factsOf(fsRow('Violation Identified').inputs, AS_OF).currentStatus).toBe('violation');
  });
});

describe('SNC answered the EPA way: by a formal action dated within its current significant run', () => {
  // four quarters of SNC: the run began 12 months before the data date
  const SNC: Overrides = { FAC_PROGRAMS_WITH_SNC: '1', FAC_COMPLIANCE_STATUS: 'Significant Violation', FAC_3YR_COMPLIANCE_HISTORY: '________SSSS', FAC_QTRS_WITH_NC: '4' };
  const acted = (months: number): Overrides => ({ ...SNC, FAC_FORMAL_ACTION_COUNT: '1', FAC_DATE_LAST_FORMAL_ACTION: monthsBack(months) });

  it('unanswered: frequency 15 - 5 - 5 - 3.75 = 1.25 -> 1, penalty 0 (top band), recency 0, repeat 15 - 4 - 3 x 1 = 8: 24, not active', () => {
    const r = score(SNC);
    expect([r.violation_frequency, r.penalty_severity, r.recency, r.repeat_offender, r.overall, r.active_enforcement]).toEqual([1, 0, 0, 8, 24, false]);
  });

  it.each([2, 6, 11])('answered by a formal action %i months back (no penalty): 15 + 1 + 30 + (25 - 20) + 12 = 63, active as snc_answered', (months) => {
    const r = score(acted(months));
    expect([r.violation_frequency, r.penalty_severity, r.recency, r.repeat_offender, r.overall, r.active_enforcement_basis]).toEqual([1, 30, 5, 12, 63, 'snc_answered']);
    expect(why(acted(months)).repeat_offender).toBe('1 formal enforcement action and 0 informal actions in the last 5 years');
  });

  it.each([13, 24, 48])('a formal action %i months back, before the run began, does not answer it: repeat 15 - 3 - 7 = 5, 21, not active', (months) => {
    const r = score(acted(months));
    expect([r.penalty_severity, r.recency, r.repeat_offender, r.overall, r.active_enforcement]).toEqual([0, 0, 5, 21, false]);
    expect(why(acted(months)).repeat_offender).toBe('1 formal enforcement action and 0 informal actions in the last 5 years; in significant violation for 4 quarters running, with no enforcement action dated since it began (the latest is older)');
  });

  it('a penalty costs penalty severity on an answered SNC, never more than leaving it unanswered: $10,000 leaves 20 of 30', () => {
    const r = score({ ...acted(6), FAC_PENALTY_COUNT: '1', FAC_TOTAL_PENALTIES: '10000', FAC_LAST_PENALTY_AMT: '10000', FAC_DATE_LAST_PENALTY: monthsBack(6) });
    expect([r.penalty_severity, r.repeat_offender, r.overall]).toEqual([20, 12, 53]);
    expect(r.overall).toBeGreaterThan(score(SNC).overall);
  });

  it('a formal action older than the window (count 0) does not answer it', () => {
    expect(score({ ...SNC, FAC_DATE_LAST_FORMAL_ACTION: monthsBack(70) }).repeat_offender).toBe(8);
  });

  describe('CWA_3_YR_QNCR_CODES, read only where present', () => {
    const CWA_SNC: Overrides = { ...SNC, NPDES_FLAG: 'Y', CWA_COMPLIANCE_STATUS: 'Significant Violation', CWA_SNC_FLAG: 'Y' };
    it.each([
      ['', 8, 'empty cell: no code, unanswered'],
      ['1111', 8, 'latest quarter unresolved'],
      ['2221', 8, 'resolved pending earlier, unresolved now'],
      ['1112', 12, 'latest quarter resolved pending: answered, counted as one case'],
      ['111B', 12, 'resolved pending, manual code'],
    ])('%p: repeat_offender %i (%s)', (codes, repeat) => {
      expect(score({ ...CWA_SNC, CWA_3_YR_QNCR_CODES: codes }).repeat_offender).toBe(repeat);
    });

    it('does not answer an SNC under another program too', () => {
      const both = { ...CWA_SNC, FAC_PROGRAMS_WITH_SNC: '2', AIR_FLAG: 'Y', CAA_COMPLIANCE_STATUS: 'High Priority Violation', CAA_HPV_FLAG: 'Y', CWA_3_YR_QNCR_CODES: '1112' };
      expect(factsOf(inputsOf(both), AS_OF).sncResolvedPending).toBe(false);
    });
  });

  describe('CWA_13QTRS_EFFLNT_EXCEEDANCES, effluent before paperwork', () => {
    const CWA_SNC1: Overrides = { FAC_PROGRAMS_WITH_SNC: '1', FAC_COMPLIANCE_STATUS: 'Significant Violation', FAC_3YR_COMPLIANCE_HISTORY: '___________S', FAC_QTRS_WITH_NC: '1', NPDES_FLAG: 'Y', CWA_COMPLIANCE_STATUS: 'Significant Violation', CWA_SNC_FLAG: 'Y' };
    it('a CWA SNC with exceedances scores below the same SNC for a missing report (none): frequency 9 against 15 - 6.25 - 1.25 x (1 + log2 3) = 5.77 -> 6', () => {
      const paperwork = score({ ...CWA_SNC1, CWA_13QTRS_EFFLNT_EXCEEDANCES: '0' });
      const effluent = score({ ...CWA_SNC1, CWA_13QTRS_EFFLNT_EXCEEDANCES: '3' });
      expect([paperwork.violation_frequency, effluent.violation_frequency]).toEqual([9, 6]);
      expect(effluent.overall).toBeLessThan(paperwork.overall);
      expect(why({ ...CWA_SNC1, CWA_13QTRS_EFFLNT_EXCEEDANCES: '3' }).violation_frequency).toContain('3 effluent limit exceedances under the Clean Water Act in 13 quarters');
    });

    it('a blank cell is 0 exceedances, and a non-number is a bad number', () => {
      expect(inputsOf({ ...CWA_SNC1, CWA_13QTRS_EFFLNT_EXCEEDANCES: '' }).programs.cwa!.effluent_exceedances).toBe(0);
      expect(() => inputsOf({ ...CWA_SNC1, CWA_13QTRS_EFFLNT_EXCEEDANCES: 'many' })).toThrow('rejected');
    });
  });
});

describe('active_enforcement: an action in the last 12 months, or a significant violation being addressed', () => {
  it('is never true without a formal action or federal case dated in the window, whatever else the record holds', () => {
    fc.assert(
      fc.property(scenarioArb, ({ inputs, asOf }) => {
        const f = factsOf(inputs, asOf);
        if (scoreFacility(inputs, asOf).active_enforcement) expect(f.formal.latest ?? f.federal.latest).not.toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it('is true for a federal case dated 10.5 months back (FEC_CASE_IDS) with no facility formal action: recent_action', () => {
    const o = { FEC_CASE_IDS: '06-2025-0042', FEC_LAST_CASE_DATE: '12/15/2025' };
    const r = score(o);
    expect([r.active_enforcement, r.active_enforcement_basis, r.repeat_offender]).toEqual([true, 'recent_action', 12]);
    expect(why(o).active_enforcement).toBe('Yes: enforcement action in the last 12 months: a federal enforcement case on 2025-12-15');
  });

  it('is false for an undated federal case number alone, and makes no claim about 5 years', () => {
    const o = { FEC_CASE_IDS: '06-2024-0042' };
    expect(score(o).active_enforcement).toBe(false);
    expect(why(o).active_enforcement).toBe('No: no formal enforcement action or federal case dated in the last 12 months (the actions on record have no date)');
  });

  it('is false for a formal action 13 months back on a facility not in SNC', () => {
    expect(score({ FAC_FORMAL_ACTION_COUNT: '1', FAC_DATE_LAST_FORMAL_ACTION: monthsBack(13) }).active_enforcement).toBe(false);
  });
});

describe('explanation lines', () => {
  it('has no line for a component that lost no points', () => {
    const i = inputsOf({ FAC_PENALTY_COUNT: '1', FAC_TOTAL_PENALTIES: '5000' });
    const r = scoreFacility(i, AS_OF);
    expect(explanationLines(r, explainComponents(i, AS_OF)).map((l) => l.component)).toEqual(['penalty_severity', 'repeat_offender']);
  });
});
