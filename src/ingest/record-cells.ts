import type { CsvRecord } from './csv-records';

/**
 * The cells of one CSV record, each made into a string only when read: the row mapper reads a minority of the
 * exporter's columns, and a string per cell (what `split` gives) made garbage of every cell not read.
 * For a record without quotes, one pass over its text finds where every field ends; a quoted record
 * (rare) is read from its parsed fields. `raw(i)` is always what `record.fields[i]` is.
 *
 * The producer keeps one and points it at each record in turn (`read`), so nothing here is per row.
 */
export class RecordCells {
  private text = '';
  private list: string[] | null = null;
  /** ends[i]: the position in `text` just after field i (a comma or the end of the text). */
  private ends: Int32Array = new Int32Array(256);
  /** Number of fields in the record. */
  length = 0;

  /** Cells of a record already split (tests, tools). */
  static of(fields: string[]): RecordCells {
    const c = new RecordCells();
    c.list = fields;
    c.length = fields.length;
    return c;
  }

  /** Points at `rec`, dropping the record read before. */
  read(rec: CsvRecord): this {
    const text = rec.text;
    if (text === null) {
      this.list = rec.fields;
      this.length = this.list.length;
      return this;
    }
    this.list = null;
    this.text = text;
    let ends = this.ends;
    let n = 0;
    for (let k = 0, len = text.length; k < len; k++) {
      if (text.charCodeAt(k) !== 44) continue;
      if (n === ends.length - 1) ends = this.grow();
      ends[n++] = k;
    }
    ends[n++] = text.length;
    this.length = n;
    return this;
  }

  /** Field `i` as written, or undefined past the last field. */
  raw(i: number): string | undefined {
    if (i >= this.length) return undefined;
    if (this.list !== null) return this.list[i];
    const start = i === 0 ? 0 : this.ends[i - 1]! + 1;
    const end = this.ends[i]!;
    return start === end ? '' : this.text.slice(start, end);
  }

  /** True when every field from `from` on is blank (whitespace only, or empty). */
  blankFrom(from: number): boolean {
    for (let i = from; i < this.length; i++) if (this.raw(i)!.trim() !== '') return false;
    return true;
  }

  private grow(): Int32Array {
    const bigger = new Int32Array(this.ends.length * 2);
    bigger.set(this.ends);
    this.ends = bigger;
    return bigger;
  }
}
