import { describe, expect, it } from 'bun:test';
import { csvRecords } from '../../src/ingest/csv-records';
import { TruncatedFileError } from '../../src/ingest/errors';

async function* chunked(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function read(text: string | Uint8Array, size = 1 << 16) {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const out: { fields: string[]; line: number }[] = [];
  for await (const r of csvRecords(chunked(bytes, size))) out.push({ fields: r.fields, line: r.line });
  return out;
}

const TRICKY = 'id,name,note\r\n1,"ACME, ""EAST"" PLANT","line one\r\nline two"\r\n2,plain,\r\n3,"",x\r\n';
const TRICKY_EXPECTED = [
  { fields: ['id', 'name', 'note'], line: 1 },
  { fields: ['1', 'ACME, "EAST" PLANT', 'line one\r\nline two'], line: 2 },
  { fields: ['2', 'plain', ''], line: 4 },
  { fields: ['3', '', 'x'], line: 5 },
];

describe('the streaming CSV reader', () => {
  it('reads quoted commas, doubled quotes and newlines inside quotes, and numbers records by their first line', async () => {
    expect(await read(TRICKY)).toEqual(TRICKY_EXPECTED);
  });

  it.each([1, 2, 3, 5, 7, 13, 64])('gives the same records whatever the chunk size (%i bytes)', async (size) => {
    expect(await read(TRICKY, size)).toEqual(TRICKY_EXPECTED);
  });

  it('drops a UTF-8 byte-order mark so the first column name is clean', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('REGISTRY_ID,FAC_NAME\n1,A\n')]);
    expect((await read(bom, 2))[0]!.fields).toEqual(['REGISTRY_ID', 'FAC_NAME']);
  });

  it('reads LF and CRLF files alike, and a last record without a final newline', async () => {
    expect(await read('a,b\n1,2\n3,4')).toEqual(await read('a,b\r\n1,2\r\n3,4\r\n'));
  });

  it('keeps a multi-byte character split across chunks intact', async () => {
    const rows = await read('a,b\n1,SÃO JOSÉ\n', 1);
    expect(rows[1]!.fields[1]).toBe('SÃO JOSÉ');
  });

  it('keeps a byte-order mark inside the file, after chunks of plain ASCII, as the character it is', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('a,b\n1,'), 0xef, 0xbb, 0xbf, ...new TextEncoder().encode('x\n2,y\n')]);
    expect((await read(bytes, 2)).map((r) => r.fields)).toEqual([['a', 'b'], ['1', '\ufeffx'], ['2', 'y']]);
  });

  it('drops two byte-order marks at the start, as the decoder and the reader each drop one', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a,b\n1,2\n')]);
    for (const size of [1, 3, 64]) expect((await read(bytes, size))[0]!.fields).toEqual(['a', 'b']);
  });

  it('keeps stray text after a closing quote instead of losing it', async () => {
    expect((await read('a,b\n"q"x,5\n'))[1]!.fields).toEqual(['qx', '5']);
  });

  it('treats a file ending inside a quoted field as truncated', async () => {
    await expect(read('a,b\n1,"never closed\n2,3\n')).rejects.toBeInstanceOf(TruncatedFileError);
  });

  it('marks the last record when the file does not end with a newline', async () => {
    const recs = [];
    for await (const r of csvRecords(chunked(new TextEncoder().encode('a,b\n1,2\n3'), 4))) recs.push(r);
    expect(recs.map((r) => r.unterminated ?? false)).toEqual([false, false, true]);
  });
});
