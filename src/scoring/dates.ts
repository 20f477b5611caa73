import { DAYS_PER_MONTH } from './rules';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** A calendar date read from data: its day number (days since 1970-01-01) and ISO spelling. */
export type DataDate = { day: number; iso: string };

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil): arithmetic only, no Date, no clock. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/**
 * An ISO `YYYY-MM-DD` date (ECHO's `MM/DD/YYYY` is accepted too), or null when the text is not a
 * real calendar date (Feb 30, month 13, year 0). Called for every date of every facility at ingest,
 * so it stays allocation-light.
 */
export function parseDataDate(text: string | null | undefined): DataDate | null {
  if (typeof text !== 'string') return null;
  let y: number, m: number, d: number;
  if (text.length === 10 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) {
    // fast path for what ingest writes: exactly YYYY-MM-DD (non-digits make NaN, rejected below)
    [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))];
  } else {
    const s = text.trim();
    const iso = ISO.exec(s);
    const us = iso ? null : US.exec(s);
    if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
    else return null;
  }
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return null;
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return { day: daysFromCivil(y, m, d), iso: `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}` };
}

/** Day number of a date text, or null (see parseDataDate). */
export function dayNumber(text: string | null | undefined): number | null {
  return parseDataDate(text)?.day ?? null;
}

/** The as-of date as a day number; an invalid as-of is a caller bug, never data, so it throws. */
export function asOfDay(asOf: string): number {
  const day = typeof asOf === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? dayNumber(asOf) : null;
  if (day === null) throw new RangeError(`score as-of date must be YYYY-MM-DD, got ${JSON.stringify(asOf)}`);
  return day;
}

/** Months from `day` to the as-of day; events dated after the as-of count as happening at it (0). */
export function monthsBefore(asOf: number, day: number): number {
  return Math.max(0, (asOf - day) / DAYS_PER_MONTH);
}
