import { describe, expect, it } from 'bun:test';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FacilityIndex } from '../../src/index/facility-index';
import { readHeader } from '../../src/ingest/columns';
import { csvRecords } from '../../src/ingest/csv-records';
import { mapRow, type MappedRow } from '../../src/ingest/row-mapper';
import { explainComponents } from '../../src/scoring/explain';
import type { ScoreInputs } from '../../src/scoring/model';
import { scoreFacility } from '../../src/scoring/score';
import { FIXTURES, runIngest } from '../ingest/support';
import { tempDir } from '../support/temp-dir';
import { RecordCells } from '../../src/ingest/record-cells';

// The real EPA ECHO facility-search download (a byte-for-byte copy of the shared real-data sample, echo_facility_search_sample.csv),
// line 26: the worked example of docs/scoring.md. It goes through the project's own CSV reader, header
// reader and row mapper, so an ingest regression on this row fails here.
const SAMPLE = join(FIXTURES, 'echo_facility_search_sample.csv');
const ID = '110000313964';

async function* fileChunks(path: string) {
  yield new Uint8Array(readFileSync(path));
}
const records: string[][] = [];
for await (const r of csvRecords(fileChunks(SAMPLE))) records.push(r.fields);
const header = readHeader(records[0]!);
const fields = records.find((f) => f.some((v) => v.endsWith(`fid=${ID}`)))!;

/** The record by header name, as the file has it. */
const row = Object.fromEntries(records[0]!.map((k, i) => [k, fields[i] ?? '']));

/** The facility-search mapping docs/scoring.md describes (absent columns become '', 0 or null), by the real mapper. */
const mapped = mapRow(RecordCells.of(fields), header) as MappedRow;
const inputs: ScoreInputs = mapped.inputs;

describe('worked example: STURM RUGER FIREARMS MANUFACTURING FACILITY, Newport NH (110000313964)', () => {
  const r = scoreFacility(inputs, '2024-06-30');

  it('reads the real row as 11 quarters, significant violation, 1 formal action, $4,255, and nulls for the absent columns', () => {
    expect(row['DFR URL']).toEndWith('fid=110000313964');
    expect(header.format).toBe('echo-facility-search');
    expect(row.RegistryID).toBe('1.1E+11'); // spreadsheet-mangled: the mapper takes the ID from the DFR URL
    expect(mapped.registry_id).toBe(ID);
    expect([inputs.qtrs_with_nc, inputs.snc_flag, inputs.formal_action_count, inputs.total_penalties_usd]).toEqual([11, true, 1, 4255]);
    // Everything the score reads. Columns a facility-search file does not have are null (not reported) and
    // named in not_reported: no count, amount or date is made up for them.
    const program = (status: string) => ({
      status, significant: false, qtrs_with_nc: null, formal_actions: null, informal_actions: null,
      penalties_usd: null, last_penalty_usd: null, last_penalty_date: null, last_formal_action_date: null, history: null, qncr_codes: null,
    });
    expect(inputs).toEqual({
      qtrs_with_nc: 11,
      history: null,
      compliance_status: 'Significant Violation',
      snc_flag: true,
      programs_in_snc: null,
      inspection_count: 4,
      informal_action_count: null,
      formal_action_count: 1,
      penalty_count: null,
      total_penalties_usd: 4255,
      last_penalty_usd: null,
      date_last_penalty: null,
      date_last_formal_action: null,
      date_last_informal_action: null,
      date_last_inspection: null,
      federal_cases: null,
      federal_penalties_usd: null,
      date_last_federal_case: null,
      federal_case_ids: null,
      facility_active: null,
      programs: { caa: program('No Violation Identified'), cwa: program('Failure to Report DMR - Not Received'), rcra: program('No Violation Identified'), sdwa: null },
      not_reported: [
        'history', 'programs_in_snc', 'informal_action_count', 'penalty_count', 'last_penalty_usd', 'date_last_penalty', 'date_last_formal_action',
        'date_last_informal_action', 'date_last_inspection', 'federal_cases', 'federal_penalties_usd', 'date_last_federal_case', 'federal_case_ids',
        'facility_active',
      ],
    });
  });

  it('the real ingest of the whole file indexes the same inputs and the same score', async () => {
    const dir = tempDir('ingest');
    await runIngest([SAMPLE], join(dir, 'fs.sqlite'), { asOf: '2024-06-30' });
    const index = FacilityIndex.open(join(dir, 'fs.sqlite'));
    try {
      const indexed = index.getDetail(ID)!;
      expect(indexed.score_inputs).toEqual(inputs);
      expect(indexed).toMatchObject({
        fac_name: 'STURM RUGER FIREARMS MANUFACTURING FACILITY',
        overall_score: 23,
        violation_frequency: 0,
        penalty_severity: 0,
        recency: 0,
        repeat_offender: 8,
        baseline: 15,
        active_enforcement: false,
      });
    } finally {
      index.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('matches the hand arithmetic of docs/scoring.md', () => {
    // 15 - (11 x 1.25 + 1 x 1.25 + 3.75 now) < 0 -> 0
    expect(r.violation_frequency).toBe(0);
    // the formal action has no date, so nothing shows it answered the SNC: unanswered, the top band (the $4,255 alone: 30 - 8.14)
    expect(r.penalty_severity).toBe(0);
    // heaviest event: an unanswered SNC at the as-of date, 25 -> 25 - 25 = 0 (the undated formal action and penalty cost no recency)
    expect(r.recency).toBe(0);
    // one formal case in the 5 years (FacFormalActionCount 1, no date) and the unanswered SNC of one known quarter: 15 - 3 - 4 = 8
    expect(r.repeat_offender).toBe(8);
    expect(r.overall).toBe(23);
    // no dated action: not active enforcement (no date, no claim)
    expect(r.active_enforcement).toBe(false);
  });

  it('is stated in docs/scoring.md with these numbers and explanation lines', () => {
    const doc = readFileSync(join(import.meta.dir, '../../docs/scoring.md'), 'utf8');
    expect(doc).toContain('overall = 15 + 0 + 0 + 0 + 8 = **23**');
    for (const line of Object.values(explainComponents(inputs, '2024-06-30'))) expect(doc).toContain(line);
  });
});
