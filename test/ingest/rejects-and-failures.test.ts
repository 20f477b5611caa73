import { describe, expect, it } from 'bun:test';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ingestCommand } from '../../src/cli/ingest';
import { FacilityIndex } from '../../src/index/facility-index';
import { UnusableInputError } from '../../src/ingest/ingest';
import { csvText, exporterRow, runIngest, writeFile } from './support';
import { tempDir } from '../support/temp-dir';


const id = (n: number) => String(990000000000 + n);

describe('bad rows are counted, shown and written to the rejects CSV, never dropped silently', () => {
  const rows = [
    exporterRow({ REGISTRY_ID: id(1) }), // line 2, good
    exporterRow({ REGISTRY_ID: '' }), // 3
    exporterRow({ REGISTRY_ID: 'ABC123' }), // 4
    exporterRow({ REGISTRY_ID: id(5), FAC_LAT: '' }), // 5
    exporterRow({ REGISTRY_ID: id(6), FAC_LAT: '95' }), // 6
    exporterRow({ REGISTRY_ID: id(7), FAC_LAT: '0', FAC_LONG: '0' }), // 7
    exporterRow({ REGISTRY_ID: id(1), FAC_NAME: 'SECOND COPY' }), // 8, duplicate of line 2
    exporterRow({ REGISTRY_ID: id(9), FAC_DATE_LAST_PENALTY: '2024/13/45' }), // 9
    exporterRow({ REGISTRY_ID: id(10), FAC_FORMAL_ACTION_COUNT: 'many' }), // 10
    exporterRow({ REGISTRY_ID: id(11) }), // 11, good
  ];

  async function built() {
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'bad.csv', csvText(rows) + '990000000012,short row\n');
    const out = join(dir, 'bad.sqlite');
    return { out, ...(await runIngest([file], out, { showRejects: 3 })) };
  }

  it('counts each reason in the index metadata', async () => {
    const { summary } = await built();
    expect(summary.info.row_counts).toEqual({
      read: 11, accepted: 5, rejected: 6, blank: 0, without_location: 3,
      rejected_missing_id: 1, rejected_non_numeric_id: 1, rejected_duplicate_id: 1, rejected_bad_date: 1, rejected_bad_number: 1, rejected_wrong_field_count: 1,
    });
    expect(summary.info.facilities_without_location).toBe(3);
  });

  it('rows with blank, out-of-range or (0, 0) coordinates are facilities without a location, not rejects', async () => {
    const { summary, out } = await built();
    expect(readFileSync(summary.rejectsPath, 'utf8')).not.toMatch(new RegExp(`${id(5)}|${id(6)}|${id(7)}`));
    const ix = FacilityIndex.open(out);
    for (const n of [5, 6, 7]) expect(ix.getSummary(id(n))).toMatchObject({ registry_id: id(n), lat: null, lng: null });
    expect(ix.getSummary(id(1))!.lat).not.toBeNull();
    ix.close();
  });

  it('writes every rejected row beside the index with file, line, reason and the record as read', async () => {
    const { summary } = await built();
    const lines = readFileSync(summary.rejectsPath, 'utf8').trim().split('\n');
    expect(summary.rejectsPath).toBe(`${summary.out}.rejects.csv`);
    expect(lines[0]).toBe('file,line,reason,detail,registry_id,record');
    // in order of discovery: duplicates surface once the as-of date is known and buffered rows are indexed
    const byLine = lines.slice(1).sort((a, b) => Number(a.split(',')[1]) - Number(b.split(',')[1]));
    expect(byLine.map((l) => l.split(',').slice(0, 3).join(','))).toEqual([
      'bad.csv,3,missing_id', 'bad.csv,4,non_numeric_id', 'bad.csv,8,duplicate_id', 'bad.csv,9,bad_date', 'bad.csv,10,bad_number', 'bad.csv,12,wrong_field_count',
    ]);
    expect(byLine[2]).toContain('SECOND COPY');
  });

  it('shows the first rejects with their line numbers as it goes', async () => {
    const { logged } = await built();
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatch(/bad\.csv:3 missing_id/);
  });

  it('keeps the first of two rows with the same ID', async () => {
    const { out } = await built();
    expect(FacilityIndex.open(out).getSummary(id(1))!.fac_name).toBe('QUORVEX PLATING LLC');
  });
});

describe('an unusable input fails the whole ingest and leaves the old index in place', () => {
  async function withGoodIndex() {
    const dir = tempDir('ingest');
    const out = join(dir, 'index.sqlite');
    await runIngest([writeFile(dir, 'good.csv', csvText([exporterRow()]))], out);
    return { dir, out, before: readFileSync(out) };
  }
  const full = csvText([exporterRow(), exporterRow({ REGISTRY_ID: id(2) })]);

  it.each<[string, () => string | Uint8Array, RegExp]>([
    ['an empty file', () => '', /empty file/],
    ['a header with no rows', () => csvText([]), /header only/],
    ['a file that is not ECHO data', () => 'name,address\nBob,1 Main St\n', /not an ECHO facility file/],
    ['a plain file cut off mid-row', () => full.slice(0, full.length - 40), /truncated/],
    ['a file cut off inside a quoted field', () => full + '990000000003,"unclosed', /truncated/],
    ['a gzip file cut short', () => gzipSync(Buffer.from(full.repeat(50))).subarray(0, 300), /truncated|gzip/],
    ['a file where no row can be indexed', () => csvText([exporterRow({ REGISTRY_ID: 'NONE' })]), /no row could be indexed/],
  ])('%s', async (_what, content, message) => {
    const { dir, out, before } = await withGoodIndex();
    const bad = writeFile(dir, "bad.csv", content());
    const err = await runIngest([bad], out).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(UnusableInputError);
    expect(err!.message).toMatch(message);
    expect(readFileSync(out).equals(before)).toBe(true);
    expect(FacilityIndex.open(out).info.facility_count).toBe(1);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('one unusable file among several fails the build (no half-built index)', async () => {
    const { dir, out, before } = await withGoodIndex();
    const good = writeFile(dir, 'more.csv', full);
    const empty = writeFile(dir, 'empty.csv', '');
    await expect(runIngest([good, empty], out)).rejects.toBeInstanceOf(UnusableInputError);
    expect(readFileSync(out).equals(before)).toBe(true);
  });

  it("the CLI's summary line counts the facilities indexed without a location beside the rejected rows", async () => {
    const dir = tempDir('ingest');
    const file = writeFile(dir, 'r.csv', csvText([exporterRow(), exporterRow({ REGISTRY_ID: id(2), FAC_LAT: '' }), exporterRow({ REGISTRY_ID: '' })]));
    const printed: string[] = [];
    const quiet = { log: console.log, error: console.error };
    console.log = (...a: unknown[]) => void printed.push(a.join(' '));
    console.error = () => {};
    try {
      expect(await ingestCommand([file, '--out', join(dir, 'r.sqlite')], {})).toBe(0);
    } finally {
      Object.assign(console, quiet);
    }
    expect(printed.join('\n')).toContain('rows      3 read: 2 indexed (1 without location), 1 rejected (missing_id 1), 0 blank');
  });

  it('the CLI exits 1 for an unusable file, 0 with rejected rows, 2 on a usage error', async () => {
    const dir = tempDir('ingest');
    const out = join(dir, 'cli.sqlite');
    const quiet = { log: console.log, error: console.error };
    console.log = console.error = () => {};
    try {
      expect(await ingestCommand([writeFile(dir, 'e.csv', ''), '--out', out], {})).toBe(1);
      expect(existsSync(out)).toBe(false);
      const withReject = writeFile(dir, 'r.csv', csvText([exporterRow(), exporterRow({ REGISTRY_ID: '' })]));
      expect(await ingestCommand([withReject, '--out', out], {})).toBe(0);
      expect(statSync(out).size).toBeGreaterThan(0);
      expect(await ingestCommand([withReject], {})).toBe(2);
      expect(await ingestCommand([withReject, '--out', join(dir, 'no-such-dir', 'x.sqlite')], {})).toBe(2);
      expect(await ingestCommand([withReject, '--out', out, '--as-of', '2026-02-30'], {})).toBe(2);
    } finally {
      Object.assign(console, quiet);
    }
  });

  it('a failed rebuild also keeps the old rejects file', async () => {
    const { dir, out } = await withGoodIndex();
    writeFileSync(`${out}.rejects.csv`, 'old\n');
    await runIngest([writeFile(dir, 'bad.csv', '')], out).catch(() => {});
    expect(readFileSync(`${out}.rejects.csv`, 'utf8')).toBe('old\n');
  });
});
