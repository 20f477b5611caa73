import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { csvField, csvRecords, type CsvRecord } from '../../src/ingest/csv-records';
import { RecordCells } from '../../src/ingest/record-cells';

async function* chunked(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function records(text: string, size: number, bom: boolean): Promise<CsvRecord[]> {
  const body = new TextEncoder().encode(text);
  const bytes = bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...body]) : body;
  const out: CsvRecord[] = [];
  for await (const r of csvRecords(chunked(bytes, size))) out.push(r);
  return out;
}

/** Every cell of `rec` as RecordCells reads it, then one past the end. */
function cellsOf(cells: RecordCells, rec: CsvRecord): (string | undefined)[] {
  cells.read(rec);
  const out: (string | undefined)[] = [];
  for (let i = 0; i <= cells.length; i++) out.push(cells.raw(i));
  return out;
}

// commas, quotes, line breaks, blanks and multi-byte text: everything a field can hold
const fieldArb = fc.stringMatching(/^[a-c ,"\r\n\tÉ0-9]{0,6}$/);
const optionsArb = fc.record({ crlf: fc.boolean(), bom: fc.boolean(), size: fc.integer({ min: 1, max: 64 }) });

describe('reading a record cell by cell', () => {
  it('gives every field the reader parsed, quoted or not, and undefined past the last', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fieldArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 }), optionsArb, async (rows, o) => {
        const text = rows.map((r) => r.map(csvField).join(',')).join(o.crlf ? '\r\n' : '\n') + (o.crlf ? '\r\n' : '\n');
        const recs = await records(text, o.size, o.bom);
        expect(recs.map((r) => r.fields)).toEqual(rows);
        const cells = new RecordCells(); // one reused for every record, as ingest does
        for (const r of recs) expect(cellsOf(cells, r)).toEqual([...r.fields, undefined]);
      }),
      { numRuns: 300 },
    );
  });

  it('splits a line without quotes at every comma, keeping a carriage return that does not end the line', async () => {
    const lineArb = fc.stringMatching(/^[a-c ,\r\tÉ0-9]{0,40}$/).filter((l) => !l.endsWith('\r'));
    await fc.assert(
      fc.asyncProperty(fc.array(lineArb, { minLength: 1, maxLength: 10 }), optionsArb, async (lines, o) => {
        const recs = await records(lines.join(o.crlf ? '\r\n' : '\n') + '\n', o.size, o.bom);
        const cells = new RecordCells();
        expect(recs.map((r) => cellsOf(cells, r))).toEqual(lines.map((l) => [...l.split(','), undefined]));
      }),
      { numRuns: 300 },
    );
  });

  it('says a record is blank from a column on exactly when every field from there trims to nothing', async () => {
    const blankishArb = fc.array(fc.constantFrom('', ' ', '\t', 'x', ' y ', '\u00a0'), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(blankishArb, fc.boolean(), fc.nat(9), async (fields, quoted, from) => {
        const line = fields.map((f) => (quoted ? `"${f}"` : f)).join(',');
        const [rec] = await records(`${line}\n`, 7, false);
        const cells = new RecordCells().read(rec!);
        expect(cells.blankFrom(from)).toBe(fields.slice(from).every((f) => f.trim() === ''));
      }),
      { numRuns: 300 },
    );
  });

  it('grows past 256 fields without losing one', async () => {
    const fields = Array.from({ length: 700 }, (_, i) => (i % 3 === 0 ? '' : String(i)));
    const [rec] = await records(`${fields.join(',')}\n`, 1 << 16, false);
    expect(cellsOf(new RecordCells(), rec!)).toEqual([...fields, undefined]);
  });

  it('reads cells of fields already split the same way (RecordCells.of)', () => {
    const cells = RecordCells.of(['1', '', ' a ']);
    expect([cells.length, cells.raw(0), cells.raw(1), cells.raw(2), cells.raw(3), cells.blankFrom(1), cells.blankFrom(3)]).toEqual([3, '1', '', ' a ', undefined, false, true]);
  });

  it('keeps the text of a record without quotes and splits it only when its fields are asked for', async () => {
    const [plain, quoted] = await records('1,a b\n2,"x,y"\n', 4, false);
    expect([plain!.text, quoted!.text]).toEqual(['1,a b', null]);
    expect([plain!.fields, quoted!.fields]).toEqual([['1', 'a b'], ['2', 'x,y']]);
  });
});
