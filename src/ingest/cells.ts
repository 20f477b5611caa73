import type { RecordCells } from './record-cells';
import { Bad, parseAmount, parseCount } from './values';

/** Reading one cell of an ECHO record: shared by the facility row (row-mapper.ts) and its program records (program-row.ts). */

/**
 * Cell `i` of a record, trimmed; '' for an absent column (-1) or a short record. Most cells start and end
 * with a printable ASCII character and are returned as they are, without calling trim.
 */
export function cell(f: RecordCells, i: number): string {
  if (i < 0) return '';
  const v = f.raw(i);
  if (v === undefined) return '';
  const n = v.length;
  if (n === 0) return v;
  const a = v.charCodeAt(0), z = v.charCodeAt(n - 1);
  return a > 32 && a < 127 && z > 32 && z < 127 ? v : v.trim();
}

/** Upper case, skipping the call for the usual one-letter flags and already upper-case values of the fast path. */
export function upper(v: string): string {
  if (v.length === 0 || v === 'Y' || v === 'N') return v;
  return v.toUpperCase();
}

const SEPARATOR = /[\s,;]/;

/** Whether the character at `i` separates codes: ASCII read by its code, anything else by the regex (Unicode white space). */
function separates(v: string, i: number): boolean {
  const ch = v.charCodeAt(i);
  if (ch < 128) return ch === 32 || ch === 44 || ch === 59 || (ch >= 9 && ch <= 13);
  return SEPARATOR.test(v[i]!);
}

/** The codes of an empty cell: one frozen list for every row (most ID cells are empty; the lists are only read and written out). */
const NO_CODES = Object.freeze([]) as unknown as string[];

/**
 * Several codes in one cell (IDs, case numbers): separated by white space, commas or semicolons, each
 * once, in file order. Read with one scan of character codes, not a regex split and a Set: it runs
 * on several cells of every row.
 */
export function codesOf(v: string): string[] {
  if (v === '') return NO_CODES;
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i <= v.length; i++) {
    if (i < v.length && !separates(v, i)) continue;
    if (i > from) {
      const code = v.slice(from, i);
      if (!out.includes(code)) out.push(code);
    }
    from = i + 1;
  }
  return out;
}

export function count(f: RecordCells, i: number, column: string, max?: number): number | null | Bad {
  return i < 0 ? null : parseCount(cell(f, i), column, max);
}

export function amount(f: RecordCells, i: number, column: string): number | null | Bad {
  return i < 0 ? null : parseAmount(cell(f, i), column);
}
