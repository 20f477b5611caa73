import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvBatches } from '../../src/ingest/csv-records';
import { openSource } from '../../src/ingest/source';
import { SAMPLE } from '../../scripts/sample';
import { rewindLines, type RewindSummary } from '../../scripts/synth/rewind';
import { removeTempDirs, tempDir } from '../support/temp-dir';

/**
 * The generator's --rewind: the committed sample as it read a month earlier (the bundled index's
 * first release). Each row of the earlier file is checked against the same facility's row now.
 */
type Row = Record<string, string>;
const DAY = 86_400_000;
const t0 = Date.parse(`${SAMPLE.previousAsOf}T00:00:00Z`);
const ms = (mdy: string) => Date.UTC(Number(mdy.slice(6)), Number(mdy.slice(0, 2)) - 1, Number(mdy.slice(3, 5)));
const vs = (h: string) => [...h].filter((q) => q === 'V' || q === 'S').length;
const num = (s: string | undefined) => (s ? Number(s) : 0);

async function readRows(path: string): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  let header: string[] = [];
  for await (const batch of csvBatches(openSource(path).chunks)) for (const r of batch) {
    if (r.line === 1) header = r.fields;
    else if (r.fields.some((v) => v !== '')) out.set(r.fields[0]!, Object.fromEntries(header.map((h, i) => [h, r.fields[i]!])));
  }
  return out;
}

async function rewind(): Promise<{ text: string; summary: RewindSummary }> {
  const summary = {} as RewindSummary;
  const lines: string[] = [];
  for await (const l of rewindLines(csvBatches(openSource(SAMPLE.csv).chunks), { seed: SAMPLE.seed, asOf: SAMPLE.previousAsOf }, summary)) lines.push(l);
  return { text: lines.join('\r\n') + '\r\n', summary };
}

let then: Map<string, Row>;
let now: Map<string, Row>;
let summary: RewindSummary;
let text: string;
beforeAll(async () => {
  ({ text, summary } = await rewind());
  const path = join(tempDir('rewind'), 'earlier.csv');
  writeFileSync(path, text);
  [then, now] = await Promise.all([readRows(path), readRows(SAMPLE.csv)]);
}, 60_000);
afterAll(() => removeTempDirs());

const both = () => [...then.keys()].filter((id) => now.has(id)).map((id) => [then.get(id)!, now.get(id)!] as const);

describe('rewinding the sample a month (generate-sample --rewind)', () => {
  it('gives the same bytes again for the same seed and file', async () => {
    expect((await rewind()).text === text).toBe(true);
  });

  it('reads the file\'s as-of date from its rows; a few of its facilities are not there yet, and a few there then are gone now', () => {
    expect(summary.current_as_of).toBe(SAMPLE.asOf);
    expect([...now.keys()].filter((id) => !then.has(id))).toEqual(summary.added_later);
    expect([...then.keys()].filter((id) => !now.has(id))).toEqual(summary.removed_later);
    expect(summary.added_later.length).toBeGreaterThan(0);
    expect(summary.removed_later.length).toBeGreaterThan(0);
    expect(summary.added_later.length + summary.removed_later.length).toBeLessThan(now.size / 100);
    expect(summary.rows_out).toBe(then.size);
  });

  it('writes no date after the earlier as-of date, and day counts to it', () => {
    for (const row of then.values()) {
      for (const [name, value] of Object.entries(row)) if (/^\d{2}\/\d{2}\/\d{4}$/.test(value)) expect({ name, late: ms(value) > t0 }).toEqual({ name, late: false });
      if (row.FAC_DATE_LAST_INSPECTION) expect(num(row.FAC_DAYS_LAST_INSPECTION)).toBe((t0 - ms(row.FAC_DATE_LAST_INSPECTION)) / DAY);
    }
  });

  it('has one event fewer of each kind dated after it, and the other counts as they are now', () => {
    let fewer = 0;
    for (const [a, b] of both()) {
      for (const [count, date] of [['FAC_INSPECTION_COUNT', 'FAC_DATE_LAST_INSPECTION'], ['FAC_INFORMAL_COUNT', 'FAC_DATE_LAST_INFORMAL_ACTION'], ['FAC_FORMAL_ACTION_COUNT', 'FAC_DATE_LAST_FORMAL_ACTION'], ['FAC_PENALTY_COUNT', 'FAC_DATE_LAST_PENALTY']]) {
        const later = b[date!] !== '' && ms(b[date!]!) > t0;
        expect(num(a[count!])).toBe(later ? Math.max(1, num(b[count!])) - 1 : num(b[count!]));
        if (later) fewer++;
        else expect(a[date!]).toBe(b[date!]);
      }
    }
    expect(fewer).toBeGreaterThan(0);
  });

  it('ends each quarterly history a quarter earlier, every quarter keeping its letter, with status, SNC and quarters in violation from it', () => {
    const statusOf = (h: string) => (h.endsWith('S') ? 'Significant Violation' : h.endsWith('V') ? 'Violation Identified' : 'No Violation Identified');
    const moved = { into: 0, outOf: 0 };
    for (const [a, b] of both()) {
      expect(a.FAC_NAME).toBe(b.FAC_NAME);
      expect([a.FAC_LAT, a.FAC_LONG]).toEqual([b.FAC_LAT, b.FAC_LONG]);
      if (b.FAC_3YR_COMPLIANCE_HISTORY === '') {
        expect(a.FAC_COMPLIANCE_STATUS).toBe(b.FAC_COMPLIANCE_STATUS);
        continue;
      }
      const h = a.FAC_3YR_COMPLIANCE_HISTORY!;
      expect(h.slice(1)).toBe(b.FAC_3YR_COMPLIANCE_HISTORY!.slice(0, 11));
      expect(a.FAC_COMPLIANCE_STATUS).toBe(statusOf(h));
      expect(num(a.FAC_QTRS_WITH_NC)).toBe(vs(h));
      expect(num(a.FAC_PROGRAMS_WITH_SNC) > 0).toBe(h.endsWith('S'));
      for (const p of ['CAA_3YR_COMPL_QTRS_HISTORY', 'RCRA_3YR_COMPL_QTRS_HISTORY', 'CWA_13QTRS_COMPL_HISTORY']) {
        if (b[p]) expect(a[p]!.slice(1)).toBe(b[p]!.slice(0, -1));
      }
      if (a.CWA_13QTRS_COMPL_HISTORY) expect(num(a.CWA_QTRS_WITH_NC)).toBe(vs(a.CWA_13QTRS_COMPL_HISTORY));
      // a program carrying the facility's record (its history) carries its status then too
      if (/[VS]/.test(h) && a.RCRA_3YR_COMPL_QTRS_HISTORY === h) expect([a.RCRA_COMPLIANCE_STATUS, a.RCRA_SNC_FLAG]).toEqual([a.FAC_COMPLIANCE_STATUS, h.endsWith('S') ? 'Y' : 'N']);
      if (/[VS]/.test(h) && a.CAA_3YR_COMPL_QTRS_HISTORY === h) expect([a.CAA_COMPLIANCE_STATUS, a.CAA_HPV_FLAG]).toEqual([a.FAC_COMPLIANCE_STATUS, h.endsWith('S') ? 'Y' : 'N']);
      const was = a.FAC_COMPLIANCE_STATUS !== 'No Violation Identified', is = b.FAC_COMPLIANCE_STATUS !== 'No Violation Identified';
      if (is && !was) moved.into++;
      if (was && !is) moved.outOf++;
    }
    // both ways: violations that began in the new quarter, and ones resolved by it
    expect(moved.into).toBeGreaterThan(0);
    expect(moved.outOf).toBeGreaterThan(0);
  });
});
