import { AppError } from '../errors';

/**
 * Strict reading of query parameters, each problem a sentence naming its parameter and what it
 * takes ("limit must be a whole number from 1 to 500, got "0""), all reported at once as one 422.
 * A parameter given twice is refused rather than one of its values picked.
 */
export class QueryReader {
  private readonly problems: string[] = [];

  constructor(private readonly params: URLSearchParams) {}

  /** The one raw value of `name` (which must be `what`), or null when absent; repeated or empty is a problem. */
  private one(name: string, what: string): string | null {
    const all = this.params.getAll(name);
    if (all.length > 1) this.problems.push(`${name} was given ${all.length} times; give it once`);
    else if (all[0] === '') this.problems.push(`${name} must be ${what}, got an empty value (leave it out for the default)`);
    else if (all.length === 1) return all[0]!;
    return null;
  }

  /** A whole number from `min` to `max`, or `fallback` when absent. */
  wholeNumber(name: string, min: number, max: number, fallback: number): number {
    const what = `a whole number from ${min} to ${max}`;
    const raw = this.one(name, what);
    if (raw === null) return fallback;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (n >= min && n <= max) return n;
    this.problems.push(`${name} must be ${what}, got ${shown(raw)}`);
    return fallback;
  }

  /** A calendar date `YYYY-MM-DD` (a real day: no month 13, no February 30), or null when absent. */
  date(name: string): string | null {
    return this.matching(name, { test: isCalendarDate }, 'a calendar date YYYY-MM-DD such as 2026-10-01');
  }

  /** A string that passes `pattern` (described as `what`), or null when absent. */
  matching(name: string, pattern: { test(s: string): boolean }, what: string): string | null {
    const raw = this.one(name, what);
    if (raw === null) return null;
    if (pattern.test(raw)) return raw;
    this.problems.push(`${name} must be ${what}, got ${shown(raw)}`);
    return null;
  }

  /** Throws the problems found so far as one 422 VALIDATION_ERROR. */
  done(): void {
    if (this.problems.length > 0) throw new AppError('VALIDATION_ERROR', this.problems.join('; '));
  }
}

/** The value as the caller sent it, for messages: quoted, and cut short. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/** `YYYY-MM-DD` naming a day that exists in the proleptic Gregorian calendar, year 0001 or later. */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}
