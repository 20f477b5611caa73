import { TruncatedFileError } from './errors';

/**
 * One CSV record and the 1-based physical line it starts on. `unterminated`: the file's last record,
 * which had no final newline (a cut-off file looks like this). A record without a quote keeps its
 * text and is split only when asked (`fields`): ingest reads a minority of the exporter's cells through
 * RecordCells (record-cells.ts), and a string per cell was most of the reader's cost and garbage.
 */
export class CsvRecord {
  constructor(
    /** The text of a record without quotes (its fields are the text split at every comma), else null. */
    readonly text: string | null,
    private parsed: string[] | null,
    readonly line: number,
    readonly unterminated?: boolean,
  ) {}

  /** Every field, as written (quotes undone); made once, on first use. */
  get fields(): string[] {
    return (this.parsed ??= this.text!.split(','));
  }
}

/**
 * Streaming RFC 4180 reader: quoted fields with commas, doubled quotes and newlines; CRLF or LF;
 * a leading BOM is dropped. Holds only the current chunk plus one partial record.
 * Lines without a quote take a fast path (kept as text, split on demand), which is nearly every line of ECHO's files.
 */
export async function* csvRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord> {
  for await (const batch of csvBatches(chunks)) yield* batch;
}

/**
 * The same records, one array per input chunk: a consumer awaits once per chunk, not once per
 * record, which at 3.2M rows is most of the cost of an async generator.
 */
export async function* csvBatches(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<CsvRecord[]> {
  const decoder = new TextDecoder('utf-8');
  let buf = '';
  let line = 1;
  let first = true;
  for await (const chunk of chunks) {
    const out: CsvRecord[] = [];
    buf += decoder.decode(chunk, { stream: true });
    if (first && buf.length > 0) {
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
      first = false;
    }
    let pos = 0;
    let quote = -1; // next quote at or after pos, found once per stretch (searching per line would be quadratic)
    for (;;) {
      const nl = buf.indexOf('\n', pos);
      if (nl < 0) break;
      if (quote < pos) {
        quote = buf.indexOf('"', pos);
        if (quote < 0) quote = buf.length;
      }
      if (quote > nl) {
        const end = nl > pos && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        out.push(new CsvRecord(buf.slice(pos, end), null, line));
        line++;
        pos = nl + 1;
        continue;
      }
      const parsed = parseQuoted(buf, pos, false);
      if (!parsed) break; // the record continues in the next chunk
      out.push(new CsvRecord(null, parsed.fields, line));
      line += parsed.newlines;
      pos = parsed.next;
    }
    buf = buf.slice(pos);
    if (out.length) yield out;
  }
  buf += decoder.decode();
  if (first && buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
  if (buf.length === 0) return;
  // last record without a final newline
  const parsed = parseQuoted(buf, 0, true);
  if (!parsed) throw new TruncatedFileError(`file ends inside a quoted field (record starting on line ${line})`);
  yield [new CsvRecord(null, parsed.fields, line, true)];
}

/** One field as RFC 4180 writes it: quoted only when it holds a quote, comma or line break (what csvRecords reads back). */
export function csvField(v: string): string {
  // \x22 is the double quote: a bare one in a regular expression reads as an open string to tools that do not parse them
  return /[\x22,\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/**
 * Parses one record from `start`, honouring quotes. Returns null when the buffer ends before the record
 * does (unless `atEof`, where the end of the buffer ends the record, and null means an unclosed quote).
 */
function parseQuoted(buf: string, start: number, atEof: boolean): { fields: string[]; next: number; newlines: number } | null {
  const fields: string[] = [];
  let i = start;
  let newlines = 0;
  const n = buf.length;
  for (;;) {
    if (i < n && buf.charCodeAt(i) === 34) {
      // quoted field: runs to the closing quote; "" is one quote
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = buf.indexOf('"', from);
        if (q < 0) return null;
        if (q + 1 >= n && !atEof) return null; // cannot tell "" from a closing quote yet
        value += buf.slice(from, q);
        if (buf.charCodeAt(q + 1) === 34) {
          value += '"';
          from = q + 2;
          continue;
        }
        for (let k = i; k < q; k++) if (buf.charCodeAt(k) === 10) newlines++;
        i = q + 1;
        break;
      }
      // tolerate stray characters between the closing quote and the delimiter (kept, not lost)
      let j = i;
      while (j < n && buf.charCodeAt(j) !== 44 && buf.charCodeAt(j) !== 10) j++;
      if (j >= n && !atEof) return null;
      let tail = buf.slice(i, j);
      if (tail.endsWith('\r')) tail = tail.slice(0, -1);
      fields.push(value + tail);
      i = j;
    } else {
      let j = i;
      while (j < n && buf.charCodeAt(j) !== 44 && buf.charCodeAt(j) !== 10) j++;
      if (j >= n && !atEof) return null;
      let value = buf.slice(i, j);
      if (value.endsWith('\r') && (j >= n || buf.charCodeAt(j) === 10)) value = value.slice(0, -1);
      fields.push(value);
      i = j;
    }
    if (i >= n) return { fields, next: n, newlines };
    if (buf.charCodeAt(i) === 10) return { fields, next: i + 1, newlines: newlines + 1 };
    i++; // comma
    if (i >= n) {
      if (!atEof) return null;
      fields.push('');
      return { fields, next: n, newlines };
    }
  }
}
