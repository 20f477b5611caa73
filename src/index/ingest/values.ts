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

const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `MM/DD/YYYY` (ECHO) or `YYYY-MM-DD` to ISO; blank is null; impossible dates (02/30) are Bad. */
export function parseDate(raw: string, column: string): string | null | Bad {
  if (raw === '' || isBlank(raw)) return null;
  const s = raw.trim();
  let y: number, m: number, d: number;
  let match = MDY.exec(s);
  if (match) [y, m, d] = [Number(match[3]), Number(match[1]), Number(match[2])];
  else if ((match = ISO.exec(s))) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else return new Bad(`${column}: "${raw}" is not a date (MM/DD/YYYY)`);
  const t = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) {
    return new Bad(`${column}: "${raw}" is not a real date`);
  }
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
