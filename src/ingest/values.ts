import { parseDataDate } from '../scoring/dates';

/** Parsing of ECHO cell values. Each returns a value or a `Bad` saying what was wrong. */
export class Bad {
  constructor(readonly detail: string) {}
}

const BLANK = new Set(['', 'NA', 'N/A', 'NULL', '-']);

export function isBlank(raw: string): boolean {
  if (raw.length === 0) return true;
  const c = raw.charCodeAt(0);
  if (c >= 48 && c <= 57) return false; // starts with a digit: the common case, decided without allocating
  return BLANK.has(raw.trim().toUpperCase());
}

/** A non-negative amount or count; blank/NA is 0 (ECHO leaves zero counts blank). `$` and `,` are allowed. */
export function parseAmount(raw: string, column: string): number | Bad {
  if (raw === '' || isBlank(raw)) return 0;
  let n = Number(raw); // plain numbers (nearly all): no string surgery
  if (Number.isNaN(n)) n = Number(raw.trim().replace(/^\$/, '').replace(/,/g, ''));
  if (!Number.isFinite(n) || n < 0) return new Bad(`${column}: "${raw}" is not a non-negative number`);
  return n;
}

export function parseCount(raw: string, column: string, max = Number.MAX_SAFE_INTEGER): number | Bad {
  const n = parseAmount(raw, column);
  if (n instanceof Bad) return n;
  if (!Number.isInteger(n) || n > max) return new Bad(`${column}: "${raw}" is not a whole number${max < 1e9 ? ` from 0 to ${max}` : ''}`);
  return n;
}


/**
 * `MM/DD/YYYY` (ECHO) or `YYYY-MM-DD` to ISO, read by the score model's own date parser (so ingest
 * and scoring never disagree on a date); blank is null; impossible dates (02/30) and dates before
 * 1900 (placeholders such as 01/01/0001) are Bad.
 */
export function parseDate(raw: string, column: string): string | null | Bad {
  if (raw === '' || isBlank(raw)) return null;
  // a national file has a few thousand distinct date texts in millions of cells: each is parsed once
  let iso = DATE_MEMO.get(raw);
  if (iso === undefined) {
    const date = parseDataDate(raw);
    iso = !date || date.iso < '1900' ? false : date.iso;
    if (DATE_MEMO.size < DATE_MEMO_MAX) DATE_MEMO.set(raw, iso);
  }
  if (iso === false) return new Bad(`${column}: "${raw}" is not a date (MM/DD/YYYY)`);
  return iso;
}

/** Date text -> ISO, or false when it is not a date. Bounded, so a file of junk dates cannot grow it without limit. */
const DATE_MEMO = new Map<string, string | false>();
const DATE_MEMO_MAX = 100_000;

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
